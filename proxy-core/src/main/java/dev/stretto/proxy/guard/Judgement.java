package dev.stretto.proxy.guard;

import java.util.List;
import java.util.Objects;

/**
 * Every applicable rule's verdict on one call, in the domain's rule order, and what follows:
 * the call is refused when an enforced rule fails.
 *
 * @param tool     the tool called
 * @param verdicts each rule that applies to the tool, with its verdict
 */
public record Judgement(String tool, List<Checked> verdicts) {

    /**
     * One rule's verdict.
     *
     * @param rule    the rule
     * @param verdict what it says
     */
    public record Checked(Rule rule, Verdict verdict) {

        /** Whether this verdict refuses the call: an enforced rule's failure. */
        public boolean refuses() {
            return rule.enforced() && verdict instanceof Verdict.Fail;
        }
    }

    public Judgement {
        Objects.requireNonNull(tool, "tool");
        verdicts = List.copyOf(verdicts);
    }

    /** The verdicts that refuse the call, in rule order. */
    public List<Checked> refusals() {
        return verdicts.stream().filter(Checked::refuses).toList();
    }

    /** Whether the call is refused. */
    public boolean refused() {
        return verdicts.stream().anyMatch(Checked::refuses);
    }

    /**
     * Why the call is refused: each enforced failure as {@code <reason> (policy check <rule
     * id>)}, joined with {@code "; "}; empty when it is not.
     */
    public String reason() {
        StringBuilder out = new StringBuilder();
        for (Checked c : refusals()) {
            if (!out.isEmpty()) {
                out.append("; ");
            }
            out.append(c.verdict().reason()).append(" (policy check ").append(c.rule().id()).append(')');
        }
        return out.toString();
    }

    /**
     * What the agent is told of a refused call: {@code Refused by the policy check, so <tool>
     * was not run and nothing changed: <reason>.}
     */
    public String message() {
        return "Refused by the policy check, so " + tool + " was not run and nothing changed: " + reason() + ".";
    }
}
