package dev.stretto.cli.learn;

/**
 * Learning cannot go on with this input (no sessions, no successful session, no known
 * tools): one line for the user, without the {@code stretto: } prefix.
 */
public final class LearnException extends Exception {

    public LearnException(String message) {
        super(message, null, false, false);
    }
}
