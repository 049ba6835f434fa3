package dev.stretto.proxy;

import dev.stretto.proxy.policy.PolicyReplayer;
import dev.stretto.trace.log.SessionLog;
import java.util.List;
import java.util.Objects;

/**
 * A recorded session replayed through a policy: what the policy would have done, as {@code
 * stretto policy test} prints it. Each {@code tools/list} answer is taken in (the server's
 * hints, the pins, the tools left out), each tool call decided against the session as it stood
 * then (a budget spent by the calls before it that the policy lets through, an {@code ask}
 * counted as approved), each of the server's own requests judged. A call gets a verdict when
 * some rule or budget matched it; a call no rule matched is only counted.
 *
 * @param session  the session's id
 * @param calls    how many tool calls the session holds
 * @param verdicts what the policy would have done, in the log's order
 */
public record PolicyReplay(String session, int calls, List<PolicyVerdict> verdicts) {

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when {@code session} or {@code verdicts} is null
     */
    public PolicyReplay {
        Objects.requireNonNull(session, "session");
        verdicts = List.copyOf(verdicts);
    }

    /**
     * Replays {@code log} through {@code policy}.
     *
     * @param log    the session
     * @param policy the policy
     * @return what the policy would have done
     */
    public static PolicyReplay of(SessionLog log, Policy policy) {
        PolicyReplayer.Result r = PolicyReplayer.replay(log, policy.rules());
        return new PolicyReplay(log.session(), r.calls(), r.verdicts());
    }
}
