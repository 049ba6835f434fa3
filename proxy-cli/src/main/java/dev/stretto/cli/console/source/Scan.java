package dev.stretto.cli.console.source;

import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One walk over the console's roots: every session log, the flow and judge logs beside them,
 * and every flow file ({@code *.flow.json}). Symbolic links are neither followed nor listed,
 * so nothing found lies outside a root; a file found under two roots (one inside the other)
 * is listed once, under the first. A directory that cannot be listed is noted, not fatal.
 *
 * @param sessions the session logs, sorted by key
 * @param flows    the flow files, sorted by key
 * @param problems one line for each directory that could not be read
 */
public record Scan(List<Found> sessions, List<FlowFound> flows, List<String> problems) {

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

    /** Copies the lists. */
    public Scan {
        sessions = List.copyOf(sessions);
        flows = List.copyOf(flows);
        problems = List.copyOf(problems);
    }

    /**
     * Walks {@code roots}.
     *
     * @param roots the console's roots, in their order
     * @return what was found
     */
    public static Scan of(List<Root> roots) {
        List<Found> sessions = new ArrayList<>();
        List<FlowFound> flows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (int i = 0; i < roots.size(); i++) {
            walk(i, roots.get(i), seen, sessions, flows, problems);
        }
        sessions.sort((a, b) -> a.key().compareTo(b.key()));
        flows.sort((a, b) -> a.key().compareTo(b.key()));
        return new Scan(sessions, flows, problems);
    }

    private static void walk(int index, Root root, Set<Path> seen, List<Found> sessions, List<FlowFound> flows,
                             List<String> problems) {
        if (!Files.isDirectory(root.path())) {
            return;
        }
        Map<Path, FileState> files = new HashMap<>();
        try {
            Files.walkFileTree(root.path(), new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!root.only().isEmpty() && dir.getParent() != null && dir.getParent().equals(root.path())
                            && !root.only().contains(dir.getFileName().toString())) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    // Without FOLLOW_LINKS a link is visited as a link: never a regular file.
                    if (attrs.isRegularFile()) {
                        files.put(file, new FileState(attrs.size(), attrs.lastModifiedTime().to(
                                java.util.concurrent.TimeUnit.NANOSECONDS)));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    problems.add(root.path().relativize(file) + ": " + describe(e));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problems.add(root.label() + ": " + describe(e));
        }
        for (Map.Entry<Path, FileState> e : files.entrySet()) {
            Path file = e.getKey();
            if (!seen.add(file)) {
                continue;
            }
            String name = file.getFileName().toString();
            FileKey key = new FileKey(index, root.path().relativize(file).toString().replace('\\', '/'));
            if (SessionLog.isSessionLogName(file)) {
                sessions.add(new Found(key, file, e.getValue(),
                        files.getOrDefault(Found.beside(file, ".flow.jsonl"), FileState.NONE),
                        files.getOrDefault(Found.beside(file, ".confirm.jsonl"), FileState.NONE)));
            } else if (name.endsWith(FLOW_SUFFIX) && name.length() > FLOW_SUFFIX.length()) {
                flows.add(new FlowFound(key, file, e.getValue()));
            }
        }
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
