package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyVerdict;
import java.util.List;

/**
 * The {@link PolicyVerdict}s of a session's decisions, made alike for the log (the live proxy)
 * and for a replay.
 */
public final class Verdicts {

    private Verdicts() {
    }

    /** The verdict on a call. */
    public static PolicyVerdict call(long tMs, String tool, String id, JsonNode arguments, Decision d,
                                     String approval, PolicyVerdict.Answer answer) {
        return new PolicyVerdict(tMs, PolicyVerdict.Kind.CALL, tool, id, arguments, d.action(), d.rule(), d.matched(),
                d.reason(), approval, answer);
    }

    /** The verdict on a call, settled: {@code why} in place of the decision's reason. */
    public static PolicyVerdict settled(long tMs, String tool, String id, JsonNode arguments, Decision d,
                                        String approval, PolicyVerdict.Answer answer, String why) {
        return new PolicyVerdict(tMs, PolicyVerdict.Kind.CALL, tool, id, arguments, d.action(), d.rule(), d.matched(),
                why, approval, answer);
    }

    /** A tool left out of a listing. */
    public static PolicyVerdict hidden(long tMs, PolicySession.Hidden h) {
        String why = h.rule().equals("pinning") ? "the server changed it since it first listed it"
                : "hidden by the policy";
        return new PolicyVerdict(tMs, PolicyVerdict.Kind.LISTING, h.tool(), null, null, PolicyAction.HIDE, h.rule(),
                List.of(h.rule()), why, null, null);
    }

    /** A tool changed since it was first listed, and what pinning does about it. */
    public static PolicyVerdict changed(long tMs, PolicySession.Change c, Pinning pinning) {
        PolicyAction action = switch (pinning) {
            case LOG, OFF -> PolicyAction.LOG;
            case DENY, END -> PolicyAction.DENY;
        };
        String what = switch (pinning) {
            case LOG, OFF -> "";
            case DENY -> "; its calls are refused and it is left out of the listing";
            case END -> "; the session ends";
        };
        return new PolicyVerdict(tMs, PolicyVerdict.Kind.PINNING, c.tool(), null, null, action, "pinning",
                List.of("pinning"), c.text() + what, null, null);
    }

    /** A request of the server's, denied. */
    public static PolicyVerdict serverRequest(long tMs, String method, String id) {
        return new PolicyVerdict(tMs, PolicyVerdict.Kind.SERVER_REQUEST, method, id, null, PolicyAction.DENY,
                "server_requests", List.of("server_requests"), serverRefusal(method), null, null);
    }

    /** Why the server's request {@code method} was answered with an error. */
    public static String serverRefusal(String method) {
        return "the policy does not let the server's " + method + " requests reach the host";
    }
}
