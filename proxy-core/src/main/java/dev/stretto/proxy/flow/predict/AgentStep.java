package dev.stretto.proxy.flow.predict;

/**
 * One action of an episode with its outcome, before the flow's vocabulary numbers it: a tool
 * call, or a message of the agent without calls (a reply, {@code Respond}). Learning counts
 * these; {@link Steps#of(dev.stretto.proxy.flow.model.Flow, dev.stretto.trace.episode.Episode)}
 * turns them into a flow's {@link Step}s.
 *
 * @param tool    the tool called, or null for a reply
 * @param outcome {@link Step#OK}, {@link Step#FAILED}, {@link Step#ANSWERED} or {@link Step#ENDED}
 * @param result  the call's result text (an error's too), or null for a reply or a call that
 *                got none
 */
public record AgentStep(String tool, int outcome, String result) {

    /** Whether this is a reply rather than a call. */
    public boolean isRespond() {
        return tool == null;
    }

    /** Whether this is a call that failed or got no result. */
    public boolean failed() {
        return outcome == Step.FAILED;
    }
}
