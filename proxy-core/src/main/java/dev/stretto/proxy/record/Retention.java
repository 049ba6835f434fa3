package dev.stretto.proxy.record;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --retain-days}: deletes session logs ({@code *.jsonl} and {@code *.json} files, in
 * the directory and below it) last modified before a cut-off. Symbolic links inside the
 * directory are neither followed nor deleted; the directory itself may be one. The files of
 * a session whose proxy is still running (its id ends in the pid of a live process) are
 * kept however old: several proxies often share one record directory, and an idle session's
 * log, or any log with {@code --retain-days 0}, would otherwise vanish while being written.
 * A file that cannot be deleted is skipped and named in the returned problems; nothing here
 * stops a session from starting.
 */
public final class Retention {

    private static final java.util.regex.Pattern SESSION_FILE =
            java.util.regex.Pattern.compile("\\d{8}T\\d{6}\\.\\d{3}Z-(\\d{1,18})(?:-\\d+)?\\..*");

    private Retention() {
    }

    /**
     * Deletes the logs under {@code dir} older than {@code days} days before {@code now}.
     *
     * @return one message for each file or directory that could not be dealt with
     */
    public static List<String> apply(Path dir, int days, Instant now) {
        Instant cutoff = now.minus(Duration.ofDays(days));
        List<String> problems = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return problems;
        }
        try {
            // The walk does not follow links, not even its starting point: a record directory
            // that is a link to the real one would be walked as a single link, not cleaned.
            Path start = dir.toRealPath();
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String name = file.getFileName().toString();
                    if (attrs.isRegularFile() && (name.endsWith(".jsonl") || name.endsWith(".json"))
                            && attrs.lastModifiedTime().toInstant().isBefore(cutoff) && !ofALiveSession(name)) {
                        try {
                            Files.delete(file);
                        } catch (IOException e) {
                            problems.add("cannot delete old log " + file + ": " + describe(e));
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    problems.add("cannot look at " + file + " for --retain-days: " + describe(e));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problems.add("cannot clean up old logs in " + dir + ": " + describe(e));
        }
        return problems;
    }

    // <start>Z-<pid>[-<n>].<ext>, as SessionId and SessionLogFile name a session's files. A
    // reused pid keeps an old log a while longer, which is harmless.
    private static boolean ofALiveSession(String fileName) {
        java.util.regex.Matcher m = SESSION_FILE.matcher(fileName);
        if (!m.matches()) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A short description of an I/O failure for a message, without a stack trace. */
    public static String describe(IOException e) {
        return switch (e) {
            case java.nio.file.AccessDeniedException x -> "permission denied";
            case java.nio.file.NoSuchFileException x -> "no such file or directory";
            case java.nio.file.FileAlreadyExistsException x -> x.getReason() != null ? x.getReason() : "it already exists";
            case java.nio.file.NotDirectoryException x -> "not a directory";
            case java.nio.file.FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }
}
