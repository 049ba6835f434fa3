package dev.stretto.proxy.flow.predict;

/**
 * One agent action of an episode with its outcome, as the flow's models count them: every
 * tool call is a step, and so is every message of the agent without calls ({@code Respond}).
 *
 * @param action  the action's id in the flow's vocabulary ({@code vocab.size()} for any other)
 * @param outcome {@link #OK}, {@link #FAILED}, {@link #ANSWERED} or {@link #ENDED}
 * @param feature the output's code-feature id, 0 without one
 * @param tool    the tool called, or null for a message
 */
public record Step(int action, int outcome, int feature, String tool) {

    /** A call that returned a result. */
    public static final int OK = 0;
    /** A call that failed or got no result. */
    public static final int FAILED = 1;
    /** A message the user answered. */
    public static final int ANSWERED = 2;
    /** A message nothing followed (yet). */
    public static final int ENDED = 3;

    /** Feature ids above this share one symbol. */
    public static final int MAX_FEATURE = 4095;

    /** The step's symbol: {@code (action * 4 + outcome) * 4096 + min(feature, 4095)}. */
    public long symbol() {
        return symbol(action, outcome, feature);
    }

    /** The symbol of an action, outcome and feature. */
    public static long symbol(int action, int outcome, int feature) {
        return ((long) action * 4 + outcome) * 4096 + Math.min(feature, MAX_FEATURE);
    }

    /** Whether this step is a tool call. */
    public boolean isCall() {
        return tool != null;
    }

    /** Whether this step is a call that failed. */
    public boolean failed() {
        return outcome == FAILED;
    }
}
