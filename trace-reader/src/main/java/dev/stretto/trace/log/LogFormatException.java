package dev.stretto.trace.log;

import java.io.IOException;

/**
 * A file that is not a readable session log: names the file, the 1-based line and what is
 * wrong with it. The message reads {@code <file>:<line>: <reason>}.
 */
public final class LogFormatException extends IOException {

    private final String file;
    private final int line;
    private final String reason;

    /**
     * @param file   the file as the caller named it
     * @param line   the 1-based line number
     * @param reason what is wrong, as a short phrase
     */
    public LogFormatException(String file, int line, String reason) {
        super(file + ":" + line + ": " + reason);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    /** The file, as the caller named it. */
    public String file() {
        return file;
    }

    /** The 1-based number of the bad line. */
    public int line() {
        return line;
    }

    /** What is wrong with the line, without the file and line number. */
    public String reason() {
        return reason;
    }
}
