package dev.stretto.cli.console.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowLog;
import java.util.List;
import java.util.Objects;

/**
 * One run of a served flow: what it decided after one of the agent's calls.
 *
 * @param after     the id of the agent's call it followed, as the timeline spells ids
 * @param call      the tool of that call from the run line, or null when there is none
 * @param failed    whether that call failed
 * @param decisions its decisions, in order
 * @param made      how many lookups it made, or null when the log has no run line (the session
 *                  ended during the run)
 * @param surprise  how unlikely its lookups' outcomes were, in nats, or null without a run line
 */
public record FlowRun(String after, String call, boolean failed, List<Decision> decisions, Integer made,
                      Double surprise) {

    /** Copies the decisions. */
    public FlowRun {
        Objects.requireNonNull(after, "after");
        decisions = List.copyOf(decisions);
    }

    /** {@return whether it was decided in shadow mode (nothing was looked up for the agent)} */
    public boolean shadow() {
        return decisions.stream().anyMatch(Decision::shadow);
    }

    /** {@return how many lookups it proposed} */
    public int proposed() {
        return (int) decisions.stream().filter(Decision::lookup).count();
    }

    /**
     * One decision.
     *
     * @param address    {@code decide#i}
     * @param site       the tool just called, or null
     * @param lookup     whether a lookup was proposed
     * @param tool       the lookup's tool, or null
     * @param arguments  the lookup's arguments, or null
     * @param reason     why it handed back, or null
     * @param prob       the probability of the lookup proposed or explained, or null
     * @param binding    the chance of the lookup's arguments, or null
     * @param outcome    what became of it
     * @param shadow     whether it was logged in shadow mode
     * @param propensity the exploration's propensity, or null when it did not explore
     * @param explored   whether exploration chose it
     * @param oracleKey  the System-One request's key, or null
     * @param ms         how long it took to decide
     */
    public record Decision(String address, String site, boolean lookup, String tool, JsonNode arguments,
                           String reason, Double prob, Double binding, FlowLog.Outcome outcome, boolean shadow,
                           Double propensity, boolean explored, String oracleKey, long ms) {
    }
}
