package dev.stretto.proxy.flow.learn.sessions;

import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The session logs of a {@code --sessions} directory: every {@code *.jsonl} directly in it
 * except flow and confirmation logs, read, and sorted by session id as the reference sorts
 * them.
 */
public final class SessionDirectory {

    private SessionDirectory() {
    }

    /**
     * Reads the logs.
     *
     * @param progress told after each file how many have been read
     * @throws NoSuchFileException   if the directory does not exist
     * @throws NotDirectoryException if it is not a directory
     * @throws IOException           if a log cannot be read or is not a session log (the
     *                               message names the file and line)
     */
    public static List<SessionLog> read(Path dir, IntConsumer progress) throws IOException {
        if (!Files.exists(dir)) {
            throw new NoSuchFileException(dir.toString());
        }
        if (!Files.isDirectory(dir)) {
            throw new NotDirectoryException(dir.toString());
        }
        List<Path> files = SessionLog.logFiles(dir);
        List<SessionLog> logs = new ArrayList<>(files.size());
        for (Path f : files) {
            logs.add(SessionLog.read(f));
            progress.accept(logs.size());
        }
        logs.sort(Comparator.comparing(SessionLog::session, ByteOrder.STRINGS));
        return logs;
    }

    /** How many log files {@link #read} would read. */
    public static int count(Path dir) throws IOException {
        return Files.isDirectory(dir) ? SessionLog.logFiles(dir).size() : 0;
    }
}
