package dev.stretto.proxy.guard;

import dev.stretto.trace.episode.ToolCall;
import java.util.Objects;
import java.util.Set;

/**
 * One policy rule: its id (such as {@code retail.cancel_reason}), the tools it applies to,
 * whether a failure refuses the call ({@code enforced}) or is only logged, and the check.
 *
 * @param id       the rule's id, as refusal messages and {@code stretto guards} name it
 * @param tools    the tools it checks
 * @param enforced whether a failure refuses the call
 * @param check    the check itself
 */
public record Rule(String id, Set<String> tools, boolean enforced, Check check) {

    /** Decides one call against what the session has shown. */
    @FunctionalInterface
    public interface Check {

        /** The verdict on {@code call}, given the session's {@code facts} before it. */
        Verdict verdict(ToolCall call, Facts facts);
    }

    public Rule {
        Objects.requireNonNull(id, "id");
        tools = Set.copyOf(tools);
        Objects.requireNonNull(check, "check");
    }

    /** An enforced rule: a failure refuses the call. */
    public static Rule enforced(String id, Set<String> tools, Check check) {
        return new Rule(id, tools, true, check);
    }

    /** A rule whose failures are only logged. */
    public static Rule loggedOnly(String id, Set<String> tools, Check check) {
        return new Rule(id, tools, false, check);
    }

    /** Whether the rule checks calls of {@code tool}. */
    public boolean appliesTo(String tool) {
        return tools.contains(tool);
    }

    /**
     * The verdict on {@code call}; a check that throws gives an unknown, so a bug in one rule
     * never refuses a call.
     */
    public Verdict verdict(ToolCall call, Facts facts) {
        try {
            return Objects.requireNonNull(check.verdict(call, facts), "verdict");
        } catch (RuntimeException e) {
            return Verdict.unknown("the rule could not be checked: " + e);
        }
    }
}
