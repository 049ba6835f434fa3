package dev.stretto.proxy.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.arbiter.ArbiterScorer;
import dev.stretto.proxy.flow.decide.DeciderChoice;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.DecisionMemo;
import dev.stretto.proxy.flow.decide.FlowDecider;
import dev.stretto.proxy.flow.decide.Scorer;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.predict.ProgramDistributions;
import dev.stretto.proxy.flow.predict.ToolNumbers;
import dev.stretto.proxy.flow.tools.LiveTools;
import dev.stretto.proxy.flow.tools.ToolGate;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A flow served in one proxy session: the flow, how it decides, and what lasts as long as the
 * session (the server's tool listing, the session's lookup and question counts, the contract
 * changes already reported). It starts one {@link FlowRun} after each agent call the flow
 * follows. Not thread-safe: it belongs to the session's owner of active-mode state.
 */
public final class FlowSession {

    private final Flow flow;
    private final FlowOptions options;
    private final DeciderKind kind;
    private final FlowDecider decider;
    private final ToolGate gate;
    private final ToolNumbers numbers;
    private final ProgramDistributions distributions;
    private final Consumer<String> flowLog;
    private final Consumer<String> warnings;
    private final LongSupplier clockMs;
    private final Set<String> reportedChanges = new HashSet<>();
    private final DecisionMemo memo;
    private boolean remembers = true;
    private LiveTools live = LiveTools.NONE;
    private int lookups;
    private int questions;
    private FlowRun current;

    private FlowSession(Flow flow, FlowOptions options, DeciderKind kind, FlowDecider decider,
                        Consumer<String> flowLog, Consumer<String> warnings, LongSupplier clockMs) {
        this.flow = flow;
        this.options = options;
        this.kind = kind;
        this.decider = decider;
        this.gate = new ToolGate(flow, options.tools());
        this.numbers = new ToolNumbers(flow);
        this.distributions = new ProgramDistributions(flow);
        this.memo = new DecisionMemo(flow);
        this.flowLog = flowLog;
        this.warnings = warnings;
        this.clockMs = clockMs;
    }

    /**
     * Starts serving {@code flow} in a session.
     *
     * @param where     how messages name the flow (its path)
     * @param sessionId the session's id, the task id unless {@code --task-id} gives one
     * @param flowLog   where the flow log's lines go (without newlines)
     * @param warnings  where the proxy's messages about the flow go (without the
     *                  {@code stretto-proxy: } prefix)
     * @param clockMs   a millisecond clock, for how long decisions take
     * @throws ProxyStartException when the flow cannot be served with the chosen decider (an
     *                             arbiter asked of a flow without one, reach without its counts,
     *                             an arbiter this build cannot judge with)
     */
    public static FlowSession start(Flow flow, String where, FlowOptions options, String sessionId,
                                    Consumer<String> flowLog, Consumer<String> warnings, LongSupplier clockMs)
            throws ProxyStartException {
        Scorer scorer = scorer(flow, DeciderChoice.choose(flow, options.decider(), where), where);
        return start(flow, scorer, options, sessionId, flowLog, warnings, clockMs);
    }

    /**
     * The scorer of decider {@code kind} for {@code flow} (chosen by {@link DeciderChoice}).
     *
     * @param where how messages name the flow (its path)
     * @throws ProxyStartException when the flow's arbiter cannot be judged with (not five folds,
     *                             weights that do not match its weighed predicates, no model)
     */
    static Scorer scorer(Flow flow, DeciderKind kind, String where) throws ProxyStartException {
        return switch (kind) {
            case HABIT -> Scorer.habit(flow);
            case REACH -> Scorer.reach(flow);
            case ARBITER -> {
                try {
                    yield new ArbiterScorer(flow);
                } catch (IllegalArgumentException e) {
                    throw new ProxyStartException("the flow " + where + " cannot be served with its arbiter: "
                            + e.getMessage(), e);
                }
            }
        };
    }

    /**
     * Starts serving {@code flow} with a scorer of the caller's (the arbiter's, which needs the
     * System-One model); {@code options.decider()} is not consulted.
     *
     * @see #start(Flow, String, FlowOptions, String, Consumer, Consumer, LongSupplier)
     */
    public static FlowSession start(Flow flow, Scorer scorer, FlowOptions options, String sessionId,
                                    Consumer<String> flowLog, Consumer<String> warnings, LongSupplier clockMs) {
        String taskId = options.taskId() != null ? options.taskId() : Objects.requireNonNull(sessionId, "sessionId");
        FlowDecider decider = new FlowDecider(flow, scorer, options.threshold(), options.exploration(), taskId);
        return new FlowSession(flow, options, scorer.kind(), decider, Objects.requireNonNull(flowLog, "flowLog"),
                Objects.requireNonNull(warnings, "warnings"), Objects.requireNonNull(clockMs, "clockMs"));
    }

    /** The decider serving the flow. */
    public DeciderKind decider() {
        return kind;
    }

    /** The flow. */
    public Flow flow() {
        return flow;
    }

    /** Records a {@code tools/list} answer of the server ({@code result}, holding {@code tools}). */
    public void listed(JsonNode result) {
        live = live.with(result);
    }

    /** What the server has listed so far. */
    public LiveTools live() {
        return live;
    }

    /** Lookups made in this session. */
    public int lookups() {
        return lookups;
    }

    /** System-One questions asked in this session. */
    public int questions() {
        return questions;
    }

    /** The run in progress, or null. */
    public FlowRun current() {
        return current;
    }

    /**
     * Whether a flow run may start now, once the agent's call has a {@code result}: no run is in
     * progress, and the session's lookups and questions are below their limits.
     */
    public boolean mayStart() {
        return current == null && lookups < options.perSession() && questions < options.maxQuestions();
    }

    /**
     * Whether a response to an agent's call can start a run: it has a {@code result} ({@code
     * isError: true} results do, at the site {@code <tool> (error)}; JSON-RPC errors never).
     */
    public static boolean follows(JsonNode response) {
        JsonNode result = response.get("result");
        JsonNode error = response.get("error");
        return result != null && (error == null || error.isNull());
    }

    /**
     * Starts the run that follows the agent's call of {@code tool}; its response is held until
     * the run finishes.
     *
     * @param after    the call's JSON-RPC id, as the agent sent it
     * @param tool     the tool the agent called
     * @param response the server's response to the call (with a {@code result})
     * @throws IllegalStateException    when a run may not start (see {@link #mayStart()})
     * @throws IllegalArgumentException when the response has no {@code result} (JSON-RPC errors
     *                                  never start a run)
     */
    public FlowRun startRun(JsonNode after, String tool, JsonNode response) {
        if (!mayStart()) {
            throw new IllegalStateException("a flow run may not start now");
        }
        if (!follows(response)) {
            throw new IllegalArgumentException("a flow run follows only a response with a result");
        }
        current = new FlowRun(this, after, tool, response);
        return current;
    }

    // --- for the run ---

    /** What this session's earlier decisions kept for the next one; null when each starts from scratch. */
    DecisionMemo memo() {
        return remembers ? memo : null;
    }

    /** Makes every decision from scratch, keeping nothing between them (what tests compare with). */
    FlowSession fromScratch() {
        remembers = false;
        return this;
    }

    FlowOptions options() {
        return options;
    }

    FlowDecider flowDecider() {
        return decider;
    }

    ToolGate gate() {
        return gate;
    }

    ToolNumbers numbers() {
        return numbers;
    }

    ProgramDistributions distributions() {
        return distributions;
    }

    void log(String line) {
        flowLog.accept(line);
    }

    void warn(String message) {
        warnings.accept(message);
    }

    long nowMs() {
        return clockMs.getAsLong();
    }

    boolean capped(int lookupsThisRun) {
        return lookupsThisRun >= options.perCall() || lookups >= options.perSession()
                || questions >= options.maxQuestions();
    }

    void lookedUp() {
        lookups++;
    }

    void asked() {
        questions++;
    }

    /** Reports a contract change once per tool. */
    void contractChanged(ToolGate.ContractChange change) {
        if (reportedChanges.add(change.tool())) {
            warn(change.message());
        }
    }

    void ended(FlowRun run) {
        if (current == run) {
            current = null;
        }
    }
}
