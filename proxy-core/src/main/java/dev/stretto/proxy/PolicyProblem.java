package dev.stretto.proxy;

import java.util.Objects;

/**
 * One thing wrong with a policy, where it is: the file (or the name a policy built in code was
 * given), the line and column of the key or value at fault, and what is wrong, for the user.
 *
 * @param source  the policy's file or name
 * @param line    the line, from 1; 0 when the problem has no place (the file cannot be read)
 * @param column  the column, from 1; 0 when not known
 * @param message what is wrong, in one sentence without the place
 */
public record PolicyProblem(String source, int line, int column, String message) {

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when {@code source} or {@code message} is null
     */
    public PolicyProblem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
    }

    /**
     * The problem as the commands print it: {@code FILE:LINE:COLUMN: MESSAGE}, the place left
     * out as far as it is not known.
     *
     * @return one line
     */
    @Override
    public String toString() {
        return source + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "") + ": " + message;
    }
}
