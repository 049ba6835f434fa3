package dev.stretto.trace.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A session log as read from its file: the header and every entry after it, in file order.
 *
 * <p>Reading accepts {@code stretto_mcp_log} 1 and 2, keeps header fields it does not know
 * ({@link LogHeader#extra()}), skips blank lines, leaves out a torn last line (one without
 * its {@code '\n'} that does not parse: the proxy stopped mid-write, or the disk filled;
 * {@link #tornLine()} says so) and rejects anything else that is not an entry with a {@link
 * LogFormatException} naming the file and line. A message entry keeps the message's text exactly as it was
 * logged, so {@link LogEntry#toJson()} gives back the line as the proxy wrote it.
 *
 * @param header   the first line
 * @param entries  the lines after it, in file order
 * @param tornLine the 1-based number of a torn last line that was left out, or 0 when the
 *                 file ended with a whole line
 */
public record SessionLog(LogHeader header, List<LogEntry> entries, int tornLine) {

    /** The file name suffix of a session log. */
    public static final String SUFFIX = ".jsonl";

    /**
     * Checks the log.
     *
     * @throws IllegalArgumentException when {@code tornLine} is negative
     */
    public SessionLog {
        Objects.requireNonNull(header, "header");
        entries = List.copyOf(entries);
        if (tornLine < 0) {
            throw new IllegalArgumentException("tornLine must not be negative");
        }
    }

    /**
     * A log whose file ended with a whole line.
     *
     * @param header  the header
     * @param entries every entry, in file order
     */
    public SessionLog(LogHeader header, List<LogEntry> entries) {
        this(header, entries, 0);
    }

    /** {@return the session id from the header, which also names the file} */
    public String session() {
        return header.session();
    }

    /**
     * Reads a session log file.
     *
     * @param file the file
     * @return the log
     * @throws LogFormatException if the file is not a session log (file, line and reason)
     * @throws IOException        if the file cannot be read
     */
    public static SessionLog read(Path file) throws IOException {
        return parse(Files.readAllBytes(file), file.toString());
    }

    /**
     * Parses the bytes of a session log.
     *
     * @param content  the whole file
     * @param fileName how to name the file in errors
     * @return the log
     * @throws LogFormatException if the content is not a session log
     */
    public static SessionLog parse(byte[] content, String fileName) throws LogFormatException {
        return new SessionLogParser(fileName).parse(content);
    }

    /**
     * The whole log as its file holds it: the header and each entry as a JSON line, each
     * ending in {@code '\n'}. For a log read from a file the reference wrote, this gives the
     * file's bytes back (blank and torn lines aside).
     *
     * @return the log's text
     */
    public String toJsonLines() {
        StringBuilder out = new StringBuilder();
        out.append(header.toJson()).append('\n');
        for (LogEntry e : entries) {
            out.append(e.toJson()).append('\n');
        }
        return out.toString();
    }

    /**
     * Whether a file name is a session log's: ends in {@code .jsonl} but is not a flow log
     * ({@code .flow.jsonl}) or a confirmation-judge log ({@code .confirm.jsonl}).
     *
     * @param file the file
     * @return whether its name is a session log's
     */
    public static boolean isSessionLogName(Path file) {
        Path name = file.getFileName();
        if (name == null) {
            return false;
        }
        String s = name.toString();
        return s.endsWith(SUFFIX) && !s.endsWith(".flow.jsonl") && !s.endsWith(".confirm.jsonl");
    }

    /**
     * The session log files directly in {@code dir} (not in its subdirectories), sorted by
     * file name, which for the proxy's logs is the order they were started in.
     *
     * @param dir the directory
     * @return the files
     * @throws IOException if {@code dir} cannot be listed
     */
    public static List<Path> logFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> isSessionLogName(p) && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        }
    }

    /**
     * The session log files in {@code dir} and all its subdirectories, sorted by path.
     *
     * @param dir the directory
     * @return the files
     * @throws IOException if a directory cannot be listed
     */
    public static List<Path> logFilesRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> isSessionLogName(p) && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        }
    }

    /**
     * Reads every session log directly in {@code dir}, in {@link #logFiles(Path)} order.
     *
     * @param dir the directory
     * @return the logs
     * @throws LogFormatException at the first file that is not a session log
     * @throws IOException        if the directory or a file cannot be read
     */
    public static List<SessionLog> readDirectory(Path dir) throws IOException {
        List<SessionLog> logs = new ArrayList<>();
        for (Path p : logFiles(dir)) {
            logs.add(read(p));
        }
        return logs;
    }
}
