package dev.stretto.trace.log;

import java.io.IOException;

/**
 * A file that is not a readable session log: names the file, the 1-based line and what is
 * wrong with it. The message reads {@code <file>:<line>: <reason>}.
 */
public final class LogFormatException extends IOException {

    /** The file, as the caller named it. */
    private final String file;
    /** The 1-based number of the bad line. */
    private final int line;
    /** What is wrong with the line. */
    private final String reason;

    /**
     * A bad line of a file.
     *
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

    /** {@return the file, as the caller named it} */
    public String file() {
        return file;
    }

    /** {@return the 1-based number of the bad line} */
    public int line() {
        return line;
    }

    /** {@return what is wrong with the line, without the file and line number} */
    public String reason() {
        return reason;
    }
}
