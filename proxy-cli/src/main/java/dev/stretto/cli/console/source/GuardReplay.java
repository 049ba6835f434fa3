package dev.stretto.cli.console.source;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A session's writes replayed through the policy guards of its domain, as {@code stretto
 * guards} replays them.
 *
 * @param domain   the domain whose guards were used, or null when there were none
 * @param missing  why there are no verdicts (no domain, no guards for it), or null
 * @param rules    the domain's rules, in its order
 * @param writes   each write, in log order
 */
public record GuardReplay(String domain, String missing, List<Rule> rules, List<Write> writes) {

    /** Copies the lists. */
    public GuardReplay {
        rules = List.copyOf(rules);
        writes = List.copyOf(writes);
    }

    /**
     * A rule.
     *
     * @param id       its id, such as {@code retail.cancel_reason}
     * @param enforced whether it refuses (else it is only logged)
     */
    public record Rule(String id, boolean enforced) {
    }

    /**
     * One write and its verdicts.
     *
     * @param tMs       when it was logged
     * @param callId    the call's id, as the timeline spells ids
     * @param tool      the tool
     * @param arguments its arguments
     * @param byProxy   whether the proxy made it (a commit's call)
     * @param refused   whether the guards refuse it
     * @param verdicts  each rule's verdict, in the domain's order
     */
    public record Write(long tMs, String callId, String tool, JsonNode arguments, boolean byProxy, boolean refused,
                        List<RuleVerdict> verdicts) {
        /** Copies the verdicts. */
        public Write {
            verdicts = List.copyOf(verdicts);
        }
    }

    /**
     * One rule's verdict on a write.
     *
     * @param rule    the rule
     * @param word    {@code pass}, {@code fail} or {@code unknown}, as stretto guards prints it
     * @param reason  the reason, or null for a pass
     */
    public record RuleVerdict(Rule rule, String word, String reason) {
    }
}
