package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Objects;

/**
 * The judge's verdict on one call.
 *
 * @param consultation what was judged
 * @param enforced     whether the judge was enforcing (mode {@code enforce})
 * @param secondShadow whether the second answer only was logged
 * @param pYes         the probability that the customer agreed ({@code confirmed}), or null without an answer
 * @param pSecond      the second question's probability of yes, or null without an answer
 * @param error        why an answer is missing (the oracle's error, or {@code no yes/no answer to <id>};
 *                     several joined with {@code "; "}), or null
 * @param fails        whether a counting answer fell below the threshold
 * @param unknown      whether nothing failed but a counting answer is missing
 * @param refusal      the text the agent gets instead of the call's result, or null when the call
 *                     goes ahead (always null in mode {@code log})
 * @param ms           how long the judgment took, in milliseconds
 */
public record Judgment(Consultation consultation, boolean enforced, boolean secondShadow, Double pYes, Double pSecond,
                       String error, boolean fails, boolean unknown, String refusal, long ms) {

    /** @throws NullPointerException if the consultation is null */
    public Judgment {
        Objects.requireNonNull(consultation, "consultation");
    }

    /** Whether the call is refused. */
    public boolean refuses() {
        return refusal != null;
    }

    /**
     * Why the call is refused, bare, as a commit's result and stderr quote it (the refusal
     * without its {@code Refused by the policy check, so <tool> was not run and nothing
     * changed: } and its final full stop), or null when the call goes ahead.
     */
    public String refusalReason() {
        return refusal == null ? null : Judge.reason(pYes, secondShadow ? null : pSecond);
    }

    /**
     * The judgment's line in the confirm log, as the reference writes it: one JSON object with
     * sorted keys, compact, no newline. {@code tool}, {@code arguments}, {@code word_list},
     * {@code enforced}, {@code proposal_check} ({@code [{"argument","value"}]}), {@code key},
     * {@code fails}, {@code unknown} and {@code ms} always; {@code second_key} with a second
     * question (asked or not); {@code second_shadow} ({@code true}) when set; {@code p_yes},
     * {@code p_second}, {@code skipped} and {@code error} only when there is one.
     */
    public String logLine() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode line = nodes.objectNode();
        Consultation c = consultation;
        line.put("tool", c.tool());
        line.set("arguments", c.arguments());
        line.put("word_list", c.wordList());
        line.put("enforced", enforced);
        ArrayNode flags = line.putArray("proposal_check");
        for (ConfirmLog.Flag f : c.proposalCheck()) {
            ObjectNode flag = flags.addObject();
            flag.put("argument", f.argument());
            flag.set("value", f.value());
        }
        if (secondShadow) {
            line.put("second_shadow", true);
        }
        line.put("key", c.confirmed().key());
        if (c.second() != null) {
            line.put("second_key", c.second().key());
        }
        if (pYes != null) {
            line.put("p_yes", pYes);
        }
        if (pSecond != null) {
            line.put("p_second", pSecond);
        }
        if (c.skipped() != null) {
            line.put("skipped", c.skipped());
        }
        if (error != null) {
            line.put("error", error);
        }
        line.put("fails", fails);
        line.put("unknown", unknown);
        line.put("ms", ms);
        return CanonicalJson.write(line);
    }
}
