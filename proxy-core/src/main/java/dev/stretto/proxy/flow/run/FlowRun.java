package dev.stretto.proxy.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.proxy.flow.decide.DecisionStep;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.tools.ToolGate;
import dev.stretto.proxy.flow.wire.Appendix;
import dev.stretto.proxy.flow.wire.FlowLogLines;
import dev.stretto.proxy.flow.wire.LookupAnswer;
import dev.stretto.proxy.flow.wire.RunRecord;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One run of the flow after an agent's call (formats 3.3), as a state machine its owner drives:
 * the owner holds the agent's response, asks {@link #decide} with the episode cut at
 * {@link #cutAt()}, makes the lookups the run asks for and reports their answers, asks the
 * System-One model when told to, and answers the agent when the run is {@link RunStep.Finished}.
 *
 * <p>At each decision the run first checks the caps (lookups after this call, lookups in the
 * session, questions in the session) and hands back silently when one is reached. Otherwise
 * the decision is logged; a proposed lookup is made only when it is allowed
 * ({@link ToolGate}), the program offers it, and the flow is not in shadow mode; else the run
 * hands back, logging value 0 at that site. Every run ends with its run line. The run never
 * blocks and does no I/O: its lines go to the session's flow log sink.
 */
public final class FlowRun {

    private final FlowSession session;
    private final JsonNode after;
    private final String call;
    private final boolean failed;
    private final JsonNode response;
    private final List<RunRecord.Visit> visits = new ArrayList<>();
    private final List<Appendix.Made> made = new ArrayList<>();
    private int index;
    private String cutAt;
    private RunStep.Lookup pending;
    private DecisionStep.Continuation waiting;
    private long decisionStartMs;
    private RunStep.Finished finished;

    FlowRun(FlowSession session, JsonNode after, String call, JsonNode response) {
        this.session = session;
        this.after = after.deepCopy();
        this.call = Objects.requireNonNull(call, "call");
        this.response = response.deepCopy();
        JsonNode isError = response.path("result").get("isError");
        this.failed = isError != null && isError.isBoolean() && isError.booleanValue();
        this.cutAt = ToolCall.idText(after);
    }

    /**
     * The id of the call the episode is to be cut at for the next decision, as the episode
     * spells it: the agent's call first, then each lookup the run made.
     */
    public String cutAt() {
        return cutAt;
    }

    /** Whether the run is over. */
    public boolean finished() {
        return finished != null;
    }

    /**
     * Makes the next decision on {@code cut}, the session's episode (after reading new context)
     * cut at {@link #cutAt()}.
     *
     * @throws IllegalStateException when the run waits for a lookup or an answer, or is over
     */
    public RunStep decide(EpisodeCut cut) {
        if (finished != null || pending != null || waiting != null) {
            throw new IllegalStateException("the run is " + (finished != null ? "over" : "waiting"));
        }
        if (session.capped(made.size())) {
            return finish();
        }
        decisionStartMs = session.nowMs();
        DecisionStep step;
        try {
            step = session.flowDecider().decide(cut, tool -> session.gate().requiredArguments(tool, session.live()),
                    session.memo());
        } catch (RuntimeException e) {
            return failedFlow(e);
        }
        return proceed(step);
    }

    /**
     * Continues the decision that asked the System-One model, with the outcome.
     *
     * @throws IllegalStateException when the run asked nothing
     */
    public RunStep resume(OracleOutcome outcome) {
        if (waiting == null) {
            throw new IllegalStateException("the run asked nothing");
        }
        DecisionStep.Continuation then = waiting;
        waiting = null;
        try {
            return proceed(then.resume(outcome));
        } catch (RuntimeException e) {
            return failedFlow(e);
        }
    }

    private RunStep proceed(DecisionStep step) {
        return switch (step) {
            case DecisionStep.AskOracle ask -> {
                session.asked();
                waiting = ask.then();
                yield new RunStep.Ask(ask.request());
            }
            case DecisionStep.Decided d -> act(d.decision());
        };
    }

    private RunStep act(Decision decision) {
        boolean shadow = session.options().shadow();
        session.log(FlowLogLines.decision(decision, after, index, session.nowMs() - decisionStartMs, shadow));
        if (!decision.lookup() || shadow) {
            return handBack();
        }
        String tool = decision.tool();
        ToolGate.Verdict verdict = session.gate().check(tool, session.live());
        if (verdict instanceof ToolGate.Refused refused) {
            if (refused.change() != null) {
                session.contractChanged(refused.change());
            }
            return handBack();
        }
        if (!session.numbers().offered(tool)) {
            session.warn("the flow chose " + tool + ", which its program does not offer; handing back");
            return handBack();
        }
        visits.add(new RunRecord.Decide(index, session.numbers().number(tool)));
        session.lookedUp();
        pending = new RunStep.Lookup(tool, decision.arguments());
        return pending;
    }

    private RunStep handBack() {
        visits.add(new RunRecord.Decide(index, 0));
        return finish();
    }

    private RunStep failedFlow(RuntimeException e) {
        session.warn("the flow failed, handing back: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        return finish();
    }

    /**
     * Records the server's response to the lookup the run asked for, made as {@code id}
     * ({@code stretto-<n>}): its outcome, and its text for the agent ({@link LookupAnswer#of};
     * null for an answer that is not JSON, a failure whose text is {@code error}). The run then decides
     * again at the lookup's site.
     *
     * @throws IllegalStateException when no lookup is outstanding
     */
    public void answered(String id, JsonNode lookupResponse) {
        if (pending == null) {
            throw new IllegalStateException("no lookup is outstanding");
        }
        LookupAnswer answer = LookupAnswer.of(lookupResponse);
        made.add(new Appendix.Made(pending.tool(), pending.arguments(), answer));
        boolean ok = !answer.failed();
        visits.add(new RunRecord.Outcome(index, ok, session.distributions().outcomeLogp(pending.tool(), ok)));
        pending = null;
        cutAt = Objects.requireNonNull(id, "id");
        index++;
    }

    /**
     * The outstanding lookup got no answer in time (or the server is gone): the run ends with
     * the lookups made so far, and a late answer is to be dropped.
     *
     * @param seconds the limit that passed, for the message
     */
    public RunStep timedOut(long seconds) {
        if (pending == null) {
            throw new IllegalStateException("no lookup is outstanding");
        }
        session.warn("no answer to " + pending.tool() + " within " + seconds + " s; going on without it");
        pending = null;
        return finish();
    }

    /** Ends the run at once with what it has (the server is gone, the session ends). */
    public RunStep abandon() {
        if (finished != null) {
            return finished;
        }
        pending = null;
        waiting = null;
        return finish();
    }

    private RunStep finish() {
        RunRecord record = new RunRecord(call, failed, session.options().perCall(), visits);
        session.log(FlowLogLines.run(after, record));
        finished = new RunStep.Finished(made.isEmpty() ? null : Appendix.reply(response, made), record);
        session.ended(this);
        return finished;
    }

    /** The lookups made so far. */
    public List<Appendix.Made> made() {
        return List.copyOf(made);
    }
}
