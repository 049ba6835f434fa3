package dev.stretto.cli.tools;

import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads session logs for the {@code stretto} commands, one file at a time, so that one bad
 * file never hides the others. A file named on the command line must be a session log (else
 * the command fails with exit status 1); in a directory, a file that is not one is named on
 * stderr and skipped, and the directory fails only when none of its logs can be read. A log
 * whose last line is incomplete (the proxy stopped mid-write, or the disk filled) is read
 * without it, and stderr says so.
 */
final class LogFiles {

    private final PrintStream err;

    LogFiles(PrintStream err) {
        this.err = err;
    }

    /** Reads a file named on the command line. */
    SessionLog read(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IOException(file + ": is a directory, not a session log");
        }
        SessionLog log;
        try {
            log = SessionLog.read(file);
        } catch (FileSystemException | LogFormatException namesItsFile) {
            throw namesItsFile;
        } catch (IOException e) {
            // The JDK's own message for some failures does not name the file.
            throw new IOException(file + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
        if (log.tornLine() > 0) {
            err.println("stretto: " + file + ":" + log.tornLine() + ": the last line is incomplete (the proxy"
                    + " stopped while writing it, or the disk filled); it is left out");
        }
        return log;
    }

    /**
     * Reads the logs directly in {@code dir}, skipping and naming those that cannot be read. A
     * directory with none says so on stderr, with how many its subdirectories hold: those are
     * read only when named, so a command given the record directory above them does not end
     * with nothing and no word of why.
     *
     * @throws IOException when there were logs and none could be read
     */
    List<SessionLog> readDirectly(Path dir) throws IOException {
        List<Path> files = SessionLog.logFiles(dir);
        if (files.isEmpty()) {
            int below = SessionLog.logFilesRecursively(dir).size();
            err.println("stretto: " + dir + ": no session logs directly in it" + (below == 0 ? ""
                    : "; its subdirectories hold " + below + ", read only when named (" + dir.resolve("*") + ")"));
        }
        return readEach(dir, files);
    }

    /**
     * Reads the logs of a directory ({@code files}, as listed from {@code dir}), skipping and
     * naming those that cannot be read.
     *
     * @throws IOException when there were logs and none could be read
     */
    List<SessionLog> readEach(Path dir, List<Path> files) throws IOException {
        List<SessionLog> logs = new ArrayList<>();
        for (Path file : files) {
            try {
                logs.add(read(file));
            } catch (IOException e) {
                err.println("stretto: " + Stretto.describe(e) + " (skipped)");
            }
        }
        if (logs.isEmpty() && !files.isEmpty()) {
            throw new IOException(dir + ": none of its " + files.size()
                    + (files.size() == 1 ? " session log" : " session logs") + " could be read");
        }
        return logs;
    }
}
