package dev.stretto.cli.console.source;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A session log found by a {@link Scan}, with the files the proxy writes beside it.
 *
 * @param key     its key
 * @param path    the file
 * @param log     the session log's state
 * @param flowLog the state of {@code <session>.flow.jsonl} beside it
 * @param judgeLog the state of {@code <session>.confirm.jsonl} beside it
 */
public record Found(FileKey key, Path path, FileState log, FileState flowLog, FileState judgeLog) {

    /** Checks the record. */
    public Found {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(path, "path");
    }

    /** {@return the path of the flow log beside it (which may not exist)} */
    public Path flowLogPath() {
        return beside(path, ".flow.jsonl");
    }

    /** {@return the path of the judge's log beside it (which may not exist)} */
    public Path judgeLogPath() {
        return beside(path, ".confirm.jsonl");
    }

    /** The file beside the session log {@code log} whose name ends in {@code suffix} instead of {@code .jsonl}. */
    static Path beside(Path log, String suffix) {
        String name = log.getFileName().toString();
        return log.resolveSibling(name.substring(0, name.length() - ".jsonl".length()) + suffix);
    }
}
