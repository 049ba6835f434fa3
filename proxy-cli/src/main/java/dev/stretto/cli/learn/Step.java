package dev.stretto.cli.learn;

/**
 * One action of an episode with its outcome (stretto-formats 2.2): a tool call, or a reply
 * (an assistant message without calls).
 *
 * @param tool    the tool called, or null for a reply ({@code Respond})
 * @param outcome {@link #OK}, {@link #FAILED}, {@link #ANSWERED} or {@link #ENDED}
 * @param result  the call's result text, or null for a reply or a call that got none
 */
public record Step(String tool, int outcome, String result) {

    /** A call whose result came back without an error. */
    public static final int OK = 0;
    /** A call that failed or got no result. */
    public static final int FAILED = 1;
    /** A reply the user answered. */
    public static final int ANSWERED = 2;
    /** A reply nothing followed. */
    public static final int ENDED = 3;

    /** Whether this is a reply rather than a call. */
    public boolean isRespond() {
        return tool == null;
    }

    /** Whether this is a call that failed or got no result. */
    public boolean failed() {
        return outcome == FAILED;
    }
}
