package dev.stretto.cli.console.source;

import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What lies under the console's roots: every session log, the flow and judge logs beside them,
 * and every flow file ({@code *.flow.json}). Symbolic links are neither followed nor listed, so
 * nothing found lies outside a root; a file under two roots (one inside the other) belongs to
 * the first. A scan is made once by walking the roots ({@link #of(List)}) and then brought up to
 * date by listing again only the directories that changed ({@link #update(Set)}). A directory
 * that cannot be listed is noted, not fatal.
 */
public final class Scan {

    /** The file name suffix of a flow file. */
    public static final String FLOW_SUFFIX = ".flow.json";

    /**
     * A flow file found.
     *
     * @param key   its key
     * @param path  the file
     * @param state its state
     */
    public record FlowFound(FileKey key, Path path, FileState state) {
    }

    /** What one directory holds: its files and what they are. */
    private record Listing(Map<Path, FileState> files, List<Found> sessions, List<FlowFound> flows) {
    }

    private final List<Root> roots;
    /** Each directory walked, each a place to watch, with what it holds. */
    private final Map<Path, Listing> directories;
    private final Map<Path, String> problems;
    private List<Found> sessions;
    private List<FlowFound> flows;

    private Scan(List<Root> roots, Map<Path, Listing> directories, Map<Path, String> problems) {
        this.roots = roots;
        this.directories = directories;
        this.problems = problems;
    }

    /**
     * Walks the roots.
     *
     * @param roots the console's roots, in their order
     * @return what was found
     */
    public static Scan of(List<Root> roots) {
        List<Root> copy = List.copyOf(roots);
        Map<Path, Map<Path, FileState>> files = new HashMap<>();
        Map<Path, String> problems = new HashMap<>();
        for (Root r : copy) {
            if (Files.isDirectory(r.path(), LinkOption.NOFOLLOW_LINKS)) {
                walk(copy, r.path(), files, problems);
            }
        }
        Map<Path, Listing> dirs = new HashMap<>();
        files.forEach((dir, in) -> dirs.put(dir, listing(copy, in)));
        return new Scan(copy, dirs, problems);
    }

    /**
     * This scan with the directories {@code changed} listed again (a directory that appeared in
     * one of them is walked whole; one that went is dropped with everything below it). What
     * the other directories hold is kept as it was, without a look at their files.
     *
     * @param changed directories whose entries changed
     * @return the scan as it is now
     */
    public Scan update(Set<Path> changed) {
        if (changed.isEmpty()) {
            return this;
        }
        Map<Path, Listing> dirs = new HashMap<>(directories);
        Map<Path, String> p = new HashMap<>(problems);
        Map<Path, Map<Path, FileState>> found = new HashMap<>();
        for (Path dir : changed) {
            p.remove(dir);
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !admitted(roots, dir)) {
                dirs.keySet().removeIf(d -> d.startsWith(dir));
                continue;
            }
            Map<Path, FileState> in = new HashMap<>();
            found.put(dir, in);
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path e : entries) {
                    BasicFileAttributes a;
                    try {
                        a = Files.readAttributes(e, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    } catch (IOException gone) {
                        continue;
                    }
                    if (a.isRegularFile()) {
                        in.put(e, state(a));
                    } else if (a.isDirectory() && !dirs.containsKey(e) && !found.containsKey(e) && admitted(roots, e)) {
                        walk(roots, e, found, p);
                    }
                }
            } catch (IOException e) {
                p.put(dir, dir + ": " + describe(e));
            }
        }
        found.forEach((dir, in) -> dirs.put(dir, listing(roots, in)));
        return new Scan(roots, dirs, p);
    }

    /** What the files of one directory are. */
    private static Listing listing(List<Root> roots, Map<Path, FileState> files) {
        List<Found> s = new ArrayList<>();
        List<FlowFound> f = new ArrayList<>();
        for (Map.Entry<Path, FileState> e : files.entrySet()) {
            Path file = e.getKey();
            int root = rootOf(roots, file);
            if (root < 0) {
                continue;
            }
            String name = file.getFileName().toString();
            boolean session = SessionLog.isSessionLogName(file);
            boolean flow = !session && name.endsWith(FLOW_SUFFIX) && name.length() > FLOW_SUFFIX.length();
            if (!session && !flow) {
                continue;
            }
            FileKey key = new FileKey(root, roots.get(root).path().relativize(file).toString().replace('\\', '/'));
            if (session) {
                s.add(new Found(key, file, e.getValue(),
                        files.getOrDefault(Found.beside(file, ".flow.jsonl"), FileState.NONE),
                        files.getOrDefault(Found.beside(file, ".confirm.jsonl"), FileState.NONE)));
            } else {
                f.add(new FlowFound(key, file, e.getValue()));
            }
        }
        return new Listing(Map.copyOf(files), List.copyOf(s), List.copyOf(f));
    }

    private static void walk(List<Root> roots, Path start, Map<Path, Map<Path, FileState>> files,
                             Map<Path, String> problems) {
        try {
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!admitted(roots, dir)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    files.putIfAbsent(dir, new HashMap<>());
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    // Without FOLLOW_LINKS a link is visited as a link: never a regular file.
                    if (attrs.isRegularFile()) {
                        files.computeIfAbsent(file.getParent(), d -> new HashMap<>()).put(file, state(attrs));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    problems.put(file, file + ": " + describe(e));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problems.put(start, start + ": " + describe(e));
        }
    }

    private static FileState state(BasicFileAttributes a) {
        return new FileState(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
    }

    /** Whether some root reads the directory {@code dir} (a default root reads only its named subdirectories). */
    private static boolean admitted(List<Root> roots, Path dir) {
        for (Root r : roots) {
            if (dir.equals(r.path())) {
                return true;
            }
            if (dir.startsWith(r.path()) && (r.only().isEmpty()
                    || r.only().contains(r.path().relativize(dir).getName(0).toString()))) {
                return true;
            }
        }
        return false;
    }

    /** The first root that reads {@code file}, or -1. */
    private static int rootOf(List<Root> roots, Path file) {
        for (int i = 0; i < roots.size(); i++) {
            Root r = roots.get(i);
            if (!file.startsWith(r.path())) {
                continue;
            }
            Path rel = r.path().relativize(file);
            if (r.only().isEmpty() || rel.getNameCount() == 1 || r.only().contains(rel.getName(0).toString())) {
                return i;
            }
        }
        return -1;
    }

    /** {@return the session logs, in no particular order} */
    public synchronized List<Found> sessions() {
        if (sessions == null) {
            List<Found> all = new ArrayList<>();
            directories.values().forEach(l -> all.addAll(l.sessions()));
            sessions = Collections.unmodifiableList(all);
        }
        return sessions;
    }

    /** {@return the flow files, sorted by key} */
    public synchronized List<FlowFound> flows() {
        if (flows == null) {
            List<FlowFound> all = new ArrayList<>();
            directories.values().forEach(l -> all.addAll(l.flows()));
            all.sort((a, b) -> a.key().compareTo(b.key()));
            flows = Collections.unmodifiableList(all);
        }
        return flows;
    }

    /** {@return one line for each directory or file that could not be read} */
    public List<String> problems() {
        return problems.values().stream().sorted().toList();
    }

    /** {@return every directory the scan lists, to be watched for changes} */
    public Set<Path> directories() {
        return Collections.unmodifiableSet(directories.keySet());
    }

    /** A short reason for an I/O failure. */
    public static String describe(IOException e) {
        return switch (e) {
            case java.nio.file.AccessDeniedException x -> "permission denied";
            case java.nio.file.NoSuchFileException x -> "no such file or directory";
            case java.nio.file.NotDirectoryException x -> "not a directory";
            case java.nio.file.FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }
}
