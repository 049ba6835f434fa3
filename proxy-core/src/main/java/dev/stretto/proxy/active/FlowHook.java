package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.run.FlowRun;
import dev.stretto.proxy.flow.run.FlowSession;
import dev.stretto.proxy.flow.run.RunStep;
import dev.stretto.proxy.flow.run.ServedFlow;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Optional;
import java.util.function.LongSupplier;
import dev.stretto.proxy.logging.Logger;

/**
 * A flow served behind the agent's calls (formats 3.2 to 3.6), as the actor's {@link AnswerHook}.
 * When the server answers one of the agent's {@code tools/call}s with a {@code result} and the
 * {@link FlowSession} may start a run, the answer is held and the run decides, on the
 * session's episode (the conversation read first) cut at the call, then at each lookup it
 * made. Each lookup is the proxy's own request ({@code stretto-<n>}, logged as the proxy's,
 * timed out on the actor's tick); a decision of the arbiter asks the System-One model in a fork
 * and goes on when the answer comes back, while other traffic flows. When the run hands back,
 * the agent gets the server's answer as it came (no lookup made) or re-written with the
 * lookups appended (logged as the proxy's, after the server's original). One run at a time:
 * answers that come meanwhile go straight on. The server's end ends a run with what it has.
 *
 * <p>Everything here runs on the actor's thread, the flow log's writes included.
 */
final class FlowHook implements AnswerHook {

    private final FlowSession session;
    private final Oracle oracle;
    private final SideLogWriter log;
    // Actor thread only.
    private Run current;

    private FlowHook(FlowSession session, Oracle oracle, SideLogWriter log) {
        this.session = session;
        this.oracle = oracle;
        this.log = log;
    }

    /**
     * Starts serving {@code served} in the session {@code sessionId} and says so on stderr.
     *
     * @param oracle  the oracle an arbiter asks (null for habit and reach)
     * @param clockMs a millisecond clock, for how long decisions take
     */
    static FlowHook start(ServedFlow served, Oracle oracle, String sessionId, LongSupplier clockMs) {
        SideLogWriter log = served.log() == null ? null : new SideLogWriter(served.log(), "flow log");
        FlowSession session = served.start(sessionId, line -> {
            if (log != null) {
                log.write(line);
            }
        }, message -> Logger.warn("{}", message), clockMs);
        Logger.info("{}", served.servingLine());
        return new FlowHook(session, oracle, log);
    }

    @Override
    public boolean hold(Held answer, RunContext context) {
        JsonNode response = answer.response();
        if (response == null || !FlowSession.follows(response) || !session.mayStart()) {
            return false;
        }
        FlowRun run = session.startRun(response.get("id"), answer.call().name(), response);
        current = new Run(answer, context, run);
        current.decide();
        return true;
    }

    @Override
    public void listed(JsonNode response) {
        JsonNode result = response == null ? null : response.get("result");
        if (result != null && result.isObject()) {
            session.listed(result);
        }
    }

    @Override
    public void serverEnded() {
        if (current != null) {
            current.end(current.flow.abandon());
        }
    }

    @Override
    public void close() {
        if (current != null) {
            // Its run line goes to the log; the answer can no longer reach the host.
            current.flow.abandon();
            current = null;
        }
        if (log != null) {
            log.close();
        }
    }

    /** The run in progress and the answer it holds. */
    private final class Run {
        private final Held held;
        private final RunContext context;
        private final FlowRun flow;

        Run(Held held, RunContext context, FlowRun flow) {
            this.held = held;
            this.context = context;
            this.flow = flow;
        }

        private boolean isCurrent() {
            return current == this;
        }

        /** The next decision, on the episode as it is now (the conversation read first). */
        void decide() {
            Optional<EpisodeCut> cut = EpisodeCut.afterCall(context.episode(), flow.cutAt());
            // The call is in the episode, since its answer is; without it there is nothing to decide on.
            step(cut.isPresent() ? flow.decide(cut.get()) : flow.abandon());
        }

        private void step(RunStep step) {
            switch (step) {
                case RunStep.Lookup lookup -> context.request(lookup.tool(), lookup.arguments(), this::lookedUp);
                case RunStep.Ask ask -> context.ask(oracle, ask.request(), outcome -> {
                    if (isCurrent()) {
                        step(flow.resume(outcome));
                    }
                });
                case RunStep.Finished finished -> end(finished);
            }
        }

        private void lookedUp(OwnRequests.Outcome outcome) {
            if (!isCurrent()) {
                return;
            }
            switch (outcome) {
                case OwnRequests.Answered a -> {
                    flow.answered(a.id(), a.response());
                    decide();
                }
                case OwnRequests.TimedOut t -> end(flow.timedOut(t.limit().toSeconds()));
                case OwnRequests.ServerGone gone -> end(flow.abandon());
            }
        }

        /** Lets the answer go: as it came, or with the lookups appended. */
        void end(RunStep step) {
            if (!(step instanceof RunStep.Finished finished)) {
                throw new IllegalStateException("the run is not over: " + step);
            }
            current = null;
            if (finished.reply() == null) {
                held.release();
            } else {
                held.replace(CanonicalJson.parse(finished.reply()));
            }
        }
    }
}
