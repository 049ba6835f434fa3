package dev.stretto.cli.console.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * One directory the console reads, and the only kind of place it reads from: every file it
 * opens is a regular file below one of these, reached without a symbolic link.
 *
 * @param path  the directory with every symbolic link in it resolved (the one given may be a
 *              link; nothing below it is followed)
 * @param label how the directory is named to people: as given on the command line, or
 *              {@code ~/.stretto} for the default
 * @param only  the names of the subdirectories read at the first level (the rest of the
 *              directory is not walked), or empty to read all of it; the files directly in it
 *              are read either way
 */
public record Root(Path path, String label, Set<String> only) {

    /**
     * Checks the root.
     *
     * @throws IllegalArgumentException when {@code path} is not absolute
     */
    public Root {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(label, "label");
        only = Set.copyOf(only);
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("a root is an absolute path: " + path);
        }
    }

    /**
     * A directory given on the command line, read whole.
     *
     * @param dir the directory as given
     * @return the root
     * @throws IOException when it does not exist or is not a directory
     */
    public static Root given(Path dir) throws IOException {
        Path real = dir.toRealPath();
        if (!Files.isDirectory(real)) {
            throw new java.nio.file.NotDirectoryException(dir.toString());
        }
        return new Root(real, dir.toString(), Set.of());
    }

    /**
     * The default: {@code ~/.stretto}, of which {@code logs/} and {@code shadow/} are read (and
     * the flows directly in it). It need not exist yet: what is recorded there later shows up.
     *
     * @param home the user's home directory
     * @return the root
     */
    public static Root stretto(Path home) {
        Path dir = home.toAbsolutePath().normalize().resolve(".stretto");
        try {
            dir = dir.toRealPath();
        } catch (IOException notYet) {
            // Read as it is named; the scan finds nothing until it exists.
        }
        return new Root(dir, "~/.stretto", Set.of("logs", "shadow"));
    }

    /**
     * The file {@code relative} names below this root, if it is a regular file reached without a
     * symbolic link and without leaving the root: the one check every path from a URL passes.
     *
     * @param relative a path relative to the root, {@code /}-separated
     * @return the file, or null when the name leaves the root, passes a link or names no file
     */
    public Path file(String relative) {
        if (relative.isEmpty() || relative.startsWith("/") || relative.indexOf('\0') >= 0
                || relative.indexOf('\\') >= 0) {
            return null;
        }
        for (String part : relative.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return null;
            }
        }
        Path p;
        try {
            p = path.resolve(relative).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        if (!p.startsWith(path) || p.equals(path)) {
            return null;
        }
        if (!only.isEmpty() && path.relativize(p).getNameCount() > 1
                && !only.contains(path.relativize(p).getName(0).toString())) {
            return null;
        }
        try {
            // The real path equals the name only when no part of it is a link.
            if (!p.toRealPath().equals(p) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        return p;
    }
}
