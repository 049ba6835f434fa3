package dev.stretto.cli.tools;

import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's policy verdicts as {@code stretto show} places them: those about a call under
 * the call (by its id), the others (listings, changed tools, the server's requests) in time
 * order among the session's steps.
 */
final class PolicyLines {

    /** No verdicts: a session without a policy. */
    static final PolicyLines NONE = new PolicyLines(List.of());

    private final Map<String, List<PolicyVerdict>> byCall = new HashMap<>();
    private final Deque<PolicyVerdict> others = new ArrayDeque<>();
    private final int count;
    private int refused;

    PolicyLines(List<PolicyVerdict> verdicts) {
        for (PolicyVerdict v : verdicts) {
            if (v.kind() == PolicyVerdict.Kind.CALL && v.id() != null) {
                byCall.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(v);
            } else {
                others.add(v);
            }
            if (v.action().refuses() || v.answer() != null && v.answer() != PolicyVerdict.Answer.WAITING
                    && v.answer() != PolicyVerdict.Answer.APPROVED) {
                refused++;
            }
        }
        this.count = verdicts.size();
    }

    /** The verdicts on the call with this id, in log order (taken: each is printed once). */
    List<PolicyVerdict> ofCall(String id) {
        List<PolicyVerdict> v = byCall.remove(id);
        return v == null ? List.of() : v;
    }

    /** The verdicts about no call logged at or before {@code tMs}, not printed yet (taken). */
    List<PolicyVerdict> until(long tMs) {
        List<PolicyVerdict> out = new ArrayList<>();
        while (!others.isEmpty() && others.peekFirst().tMs() <= tMs) {
            out.add(others.pollFirst());
        }
        return out;
    }

    /** Every verdict not printed yet, in time order. */
    List<PolicyVerdict> rest() {
        List<PolicyVerdict> out = new ArrayList<>(others);
        others.clear();
        byCall.values().forEach(out::addAll);
        byCall.clear();
        out.sort(java.util.Comparator.comparingLong(PolicyVerdict::tMs));
        return out;
    }

    /** How many verdicts there are, and how many refused something. */
    int count() {
        return count;
    }

    int refused() {
        return refused;
    }

    /** One verdict, as a line says it (without colour). */
    static String text(PolicyVerdict v) {
        String by = v.rule() == null ? "the policy" : v.rule().equals("pinning") ? "pinning"
                : v.rule().equals("server_requests") ? "server_requests" : "rule " + v.rule();
        String why = v.reason() == null ? "" : ": " + v.reason();
        String what = switch (v.kind()) {
            case CALL -> "";
            case LISTING -> v.name() + " left out of the listing";
            case PINNING -> v.name() + " changed";
            case SERVER_REQUEST -> "the server's " + v.name() + " (id " + v.id() + ") answered with an error, not shown"
                    + " to the host";
        };
        if (v.kind() != PolicyVerdict.Kind.CALL) {
            return "policy: " + what + " (" + by + ")" + (v.kind() == PolicyVerdict.Kind.LISTING ? "" : why);
        }
        if (v.answer() != null) {
            return switch (v.answer()) {
                case WAITING -> "policy: held for a person's approval (" + by + "), id " + v.approval();
                case APPROVED -> "policy: approved by a person (" + v.approval() + ")";
                case DENIED, TIMED_OUT, CANCELLED, SESSION_ENDED -> "policy: REFUSED (" + by + ")" + why;
            };
        }
        return switch (v.action()) {
            case ALLOW -> "policy: allowed (" + by + ")";
            case LOG -> "policy: logged (" + by + ")" + why;
            case ASK -> "policy: asked (" + by + ")" + why;
            case DENY, HIDE -> "policy: REFUSED (" + by + ")" + why;
        };
    }

    /** Whether the verdict refused something, for its colour. */
    static boolean refusing(PolicyVerdict v) {
        return v.action().refuses() || v.answer() != null && v.answer() != PolicyVerdict.Answer.WAITING
                && v.answer() != PolicyVerdict.Answer.APPROVED;
    }

    /** A call's arguments, for a verdict about a call the log does not hold. */
    static String call(PolicyVerdict v) {
        return v.name() + (v.arguments() == null ? "" : " " + TimelinePrinter.cut(CanonicalJson.write(v.arguments())));
    }
}
