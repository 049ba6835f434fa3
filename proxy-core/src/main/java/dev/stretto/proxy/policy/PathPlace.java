package dev.stretto.proxy.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Where a path an argument names really is, against a policy's directories ({@code within},
 * {@code outside}): the path is followed as the file system follows it, so {@code ..} and
 * symbolic links count for what they point to, and {@code /srv/data/../etc/passwd} or a link
 * in {@code /srv/data} to {@code /etc} are outside {@code /srv/data}.
 *
 * <p>Servers read a path in one of two ways: as the kernel does, component by component, a
 * link followed where it stands and {@code ..} taken after it ({@code open(2)}, Python's
 * {@code realpath}); or with {@code ..} first taken away as text, then the links followed
 * (Node's {@code path.resolve} then {@code fs.realpath}, Java's {@code normalize}). The two
 * differ when {@code ..} follows a link. A path is inside only when it is inside read both
 * ways, outside only when it is outside both ways; otherwise (and for a path that is not
 * absolute, since the server resolves a relative one or one starting with {@code ~} against a
 * directory the policy does not know, or that the file system cannot tell: a loop of links, a
 * directory that cannot be read) its place is {@link #UNKNOWN}, which meets both conditions
 * (see {@link Condition}).
 *
 * <p>What this cannot see: a link made after the check and before the server acts on the
 * path, and hard links (a file linked into the directory from outside it is inside).
 */
enum PathPlace {
    /** Inside one of the directories, read both ways. */
    INSIDE,
    /** Outside all of them, read both ways. */
    OUTSIDE,
    /** Not known for sure. */
    UNKNOWN;

    /** How many links one path may pass through, as Linux allows. */
    static final int MAX_LINKS = 40;

    /** Where {@code path} is against {@code directories} (absolute, normalised). */
    static PathPlace of(String path, List<Path> directories) {
        if (path.isEmpty() || path.charAt(0) != '/' || path.indexOf('\0') >= 0) {
            return UNKNOWN;
        }
        Path given;
        try {
            given = Path.of(path);
        } catch (InvalidPathException e) {
            return UNKNOWN;
        }
        Path walked = walk(given);
        // Without a .. the two readings are one (normalising only drops . and doubled slashes).
        Path normal = given.normalize();
        boolean dots = false;
        for (Path part : given) {
            dots |= part.toString().equals("..");
        }
        Path textFirst = dots ? walk(normal) : walked;
        if (walked == null || textFirst == null) {
            return UNKNOWN;
        }
        boolean a = inside(walked, directories);
        boolean b = inside(textFirst, directories);
        return a && b ? INSIDE : !a && !b ? OUTSIDE : UNKNOWN;
    }

    private static boolean inside(Path p, List<Path> directories) {
        for (Path d : directories) {
            // The directory as its own links lead (a /tmp that is a link), as the path is read.
            Path real = walk(d);
            if (p.startsWith(real == null ? d : real)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code p} (absolute) as the kernel follows it: each component in turn, a link replaced
     * by what it points to, {@code ..} the parent of where the walk is; a component that does
     * not exist is taken as written (what comes after it may still be {@code ..}). Null when
     * it passes through more than {@link #MAX_LINKS} links, or the file system cannot say.
     */
    static Path walk(Path p) {
        Deque<String> todo = new ArrayDeque<>();
        for (Path part : p) {
            todo.add(part.toString());
        }
        Path root = p.getRoot();
        Path at = root;
        // Whether each directory on the way exists, the root's first: below one that does not,
        // nothing does, and nothing there is looked up (a walk that ends up inside again by
        // .. looks again). Most paths a call names are files to read, and exist; a write's
        // does not, and a policy's directory may not either.
        Deque<Boolean> there = new ArrayDeque<>();
        there.push(true);
        int links = 0;
        while (!todo.isEmpty()) {
            String c = todo.pollFirst();
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                if (at.getParent() != null) {
                    at = at.getParent();
                    there.pop();
                }
                continue;
            }
            Path next = at.resolve(c);
            if (!there.peek()) {
                at = next;
                there.push(false);
                continue;
            }
            BasicFileAttributes attributes;
            try {
                // Null when it does not exist: no exception, which costs more than the look itself.
                attributes = next.getFileSystem().provider().readAttributesIfExists(next, BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | SecurityException e) {
                return null;
            }
            if (attributes == null || !attributes.isSymbolicLink()) {
                at = next;
                there.push(attributes != null);
                continue;
            }
            if (++links > MAX_LINKS) {
                return null;
            }
            Path target;
            try {
                target = Files.readSymbolicLink(next);
            } catch (IOException | SecurityException | UnsupportedOperationException e) {
                return null;
            }
            Deque<String> parts = new ArrayDeque<>();
            for (Path part : target) {
                parts.add(part.toString());
            }
            while (!parts.isEmpty()) {
                todo.addFirst(parts.pollLast());
            }
            if (target.isAbsolute()) {
                at = root;
                there.clear();
                there.push(true);
            }
        }
        return at;
    }
}
