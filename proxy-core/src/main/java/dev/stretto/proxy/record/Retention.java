package dev.stretto.proxy.record;

import dev.stretto.proxy.io.IoMessages;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --retain-days}: deletes the files the proxy wrote (session logs, flow logs and
 * confirmation logs, known by their names: {@link #KINDS}) in the record directory and below
 * it, last modified before a cut-off. Nothing else is touched, whatever its name ends in: a
 * {@code package.json} or a log of another tool in the directory stays. Symbolic links inside
 * the directory are neither followed nor deleted; the directory itself may be one. The files
 * of a session whose proxy is still running (its id ends in the pid of a live process) are
 * kept however old: several proxies often share one record directory, and an idle session's
 * log, or any log with {@code --retain-days 0}, would otherwise vanish while being written.
 * A file that cannot be deleted is skipped and named in the result's problems; nothing here
 * stops a session from starting.
 */
public final class Retention {

    /** A session id as {@link SessionId} and {@link SessionLogFile} make it; group 1 is the pid. */
    private static final String SESSION = "\\d{8}T\\d{6}\\.\\d{3}Z-(\\d{1,18})(?:-\\d+)?";

    /**
     * A kind of file the proxy writes, known by the form of its name.
     *
     * @param what what the file is, for people
     * @param name the whole file name; group 1 is the pid of the session's proxy
     */
    public record Kind(String what, Pattern name) {
    }

    /**
     * What {@code --retain-days} deletes in the record directory. A kind of file the proxy
     * comes to write there is added here. The other files it deletes, the answers of the
     * oracle cache the session asks, have a layout of their own (no session in their names)
     * and are pruned by {@code OracleCache.prune} in the same step.
     */
    public static final List<Kind> KINDS = List.of(
            new Kind("session log", Pattern.compile(SESSION + "\\.jsonl")),
            new Kind("flow log", Pattern.compile(SESSION + "\\.flow\\.jsonl")),
            new Kind("confirmation log", Pattern.compile(SESSION + "\\.confirm\\.jsonl")));

    /**
     * What one clean-up did.
     *
     * @param deleted  how many files it deleted
     * @param problems one message for each file or directory that could not be dealt with
     */
    public record Outcome(int deleted, List<String> problems) {
    }

    private Retention() {
    }

    /** Deletes the proxy's files under {@code dir} older than {@code days} days before {@code now}. */
    public static Outcome apply(Path dir, int days, Instant now) {
        Instant cutoff = now.minus(Duration.ofDays(days));
        List<String> problems = new ArrayList<>();
        int[] deleted = {0};
        if (!Files.isDirectory(dir)) {
            return new Outcome(0, problems);
        }
        try {
            // The walk does not follow links, not even its starting point: a record directory
            // that is a link to the real one would be walked as a single link, not cleaned.
            Path start = dir.toRealPath();
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && attrs.lastModifiedTime().toInstant().isBefore(cutoff)
                            && isOldFileToDelete(file.getFileName().toString())) {
                        try {
                            Files.delete(file);
                            deleted[0]++;
                        } catch (IOException e) {
                            problems.add("cannot delete old log " + file + ": " + IoMessages.describe(e));
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    problems.add("cannot look at " + file + " for --retain-days: " + IoMessages.describe(e));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problems.add("cannot clean up old logs in " + dir + ": " + IoMessages.describe(e));
        }
        return new Outcome(deleted[0], problems);
    }

    // A file of one of the KINDS whose session's proxy is not running. A reused pid keeps an
    // old log a while longer, which is harmless.
    private static boolean isOldFileToDelete(String fileName) {
        for (Kind kind : KINDS) {
            Matcher m = kind.name().matcher(fileName);
            if (m.matches()) {
                try {
                    return !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false);
                } catch (NumberFormatException e) {
                    return true;
                }
            }
        }
        return false;
    }
}
