package dev.stretto.proxy.flow;

import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.flow.learn.sessions.SessionReader;
import dev.stretto.proxy.flow.promote.PromoteOptions;
import dev.stretto.proxy.flow.promote.Promoter;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * {@code stretto promote} as a library: a flow scored on the sessions it ran in shadow ({@code
 * FlowSettings.Builder.shadow}), and given a promotion record: the flow then acts only at the
 * sites where the agent really made the lookups it would have made, and hands back after every
 * other call.
 *
 * <pre>{@code
 * PromotionResult promoted = Promotion.of(flow)
 *         .sessionsIn(Path.of("logs/shadow"))
 *         .promote();
 * FlowFiles.write(promoted.flow(), Path.of("retail.promoted.flow.json"));
 * }</pre>
 *
 * <p>The flow's decisions are made again on each session, as served (with its decider and the
 * threshold; an arbiter's questions answered by the {@link #oracle oracle}, whose cache the
 * shadow runs filled), and scored against what the agent did next. A site is promoted when the
 * flow proposed lookups there, the agent used at least {@link #minUsed} of them, the 90% Wilson
 * lower bound of that share is at least {@link #minLower}, and the lookups came from at least
 * {@link #minTasks} tasks. The project's {@code docs/learn.md} describes the scoring. Not
 * thread-safe; {@link #promote()} may be called again.
 */
public final class Promotion {

    /** How the decisions are scored. */
    public enum Scoring {
        /**
         * As served (the default): at each call's result the flow decides with the turn's calls
         * already sent pending; after a used lookup whose call has a result, it goes on as if it
         * had made it, up to the per-call limit; first through every site, then only through the
         * promoted ones, until the promotion repeats (at most 8 more passes).
         */
        CHAINED,
        /**
         * The reference's older scoring: turns split into single calls, one decision after each
         * result, used when the agent made the call anywhere later.
         */
        SINGLE_PASS
    }

    private final Flow flow;
    private Path directory;
    private List<SessionLog> logs;
    private DeciderKind decider;
    private Oracle oracle;
    private double threshold = 0.3;
    private double minUsed = 0.7;
    private double minLower = 0.5;
    private long minTasks = 3;
    private int perCall = 8;
    private Scoring scoring = Scoring.CHAINED;
    private Progress progress = Progress.NONE;

    private Promotion(Flow flow) {
        this.flow = flow;
    }

    /**
     * Promoting {@code flow}, with the defaults: its own decider, threshold 0.3, used share 0.7,
     * lower bound 0.5, 3 tasks, 8 lookups per call, chained scoring.
     *
     * @param flow the flow to promote (a promotion record it has is ignored and replaced)
     * @return the promotion
     */
    public static Promotion of(Flow flow) {
        return new Promotion(Objects.requireNonNull(flow, "flow"));
    }

    /**
     * The sessions it ran in: the session logs of a directory ({@code --sessions}).
     *
     * @param dir every {@code *.jsonl} directly in it, flow and confirm logs skipped
     * @return this
     */
    public Promotion sessionsIn(Path dir) {
        this.directory = Objects.requireNonNull(dir, "dir");
        this.logs = null;
        return this;
    }

    /**
     * The sessions it ran in, from memory.
     *
     * @param sessions the sessions, in any order
     * @return this
     */
    public Promotion sessions(List<SessionLog> sessions) {
        this.logs = List.copyOf(sessions);
        this.directory = null;
        return this;
    }

    /**
     * The decider ({@code --decider}).
     *
     * @param kind the decider, or null for the flow's own: its arbiter, else reach with the
     *             counts, else habit
     * @return this
     */
    public Promotion decider(DeciderKind kind) {
        this.decider = kind;
        return this;
    }

    /**
     * Who answers the arbiter's questions ({@code --oracle}); needed when the flow is scored
     * with its arbiter.
     *
     * @param answering the oracle; the caller closes it
     * @return this
     */
    public Promotion oracle(Oracle answering) {
        this.oracle = answering;
        return this;
    }

    /**
     * The decision threshold the flow decides with ({@code --threshold}, default 0.3).
     *
     * @param p from 0 to 1
     * @return this
     */
    public Promotion threshold(double p) {
        this.threshold = share(p, "--threshold");
        return this;
    }

    /**
     * The least share of its lookups the agent must use ({@code --min-used}, default 0.7).
     *
     * @param share from 0 to 1
     * @return this
     */
    public Promotion minUsed(double share) {
        this.minUsed = share(share, "--min-used");
        return this;
    }

    /**
     * The least 90% Wilson lower bound of that share ({@code --min-lower}, default 0.5).
     *
     * @param bound from 0 to 1
     * @return this
     */
    public Promotion minLower(double bound) {
        this.minLower = share(bound, "--min-lower");
        return this;
    }

    /**
     * The fewest tasks with lookups ({@code --min-tasks}, default 3).
     *
     * @param n 0 or more
     * @return this
     */
    public Promotion minTasks(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("--min-tasks must not be negative");
        }
        this.minTasks = n;
        return this;
    }

    /**
     * The most lookups chained after one call ({@code --per-call}, default 8).
     *
     * @param n 0 or more
     * @return this
     */
    public Promotion perCall(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("--per-call must not be negative");
        }
        this.perCall = n;
        return this;
    }

    /**
     * How the decisions are scored ({@code --scoring}).
     *
     * @param how chained (the default) or single-pass
     * @return this
     */
    public Promotion scoring(Scoring how) {
        this.scoring = Objects.requireNonNull(how, "how");
        return this;
    }

    /**
     * Where reading the sessions is told.
     *
     * @param to the progress, {@link Progress#NONE} by default
     * @return this
     */
    public Promotion progress(Progress to) {
        this.progress = Objects.requireNonNull(to, "to");
        return this;
    }

    /**
     * Scores the flow and gives it its promotion record.
     *
     * @return the promoted flow and how it was scored
     * @throws IllegalStateException    when no sessions are given
     * @throws IllegalArgumentException when the oracle was not opened by {@code
     *                                  OracleSettings.open()}
     * @throws FlowException            when the flow cannot be scored with the decider asked
     *                                  for, an arbiter has no oracle or key to ask with, or
     *                                  there are no sessions to score
     * @throws IOException              when a session log cannot be read
     * @throws InterruptedException     when interrupted while waiting for the System-One model
     */
    public PromotionResult promote() throws FlowException, IOException, InterruptedException {
        if (directory == null && logs == null) {
            throw new IllegalStateException("promoting needs the sessions the flow ran in");
        }
        PromoteOptions options = new PromoteOptions(oracle == null ? null : OracleHandle.of(oracle), decider,
                new Promoted.Bar(threshold, minUsed, minLower, minTasks), perCall,
                scoring == Scoring.SINGLE_PASS ? PromoteOptions.Algorithm.SINGLE_PASS : PromoteOptions.Algorithm.CHAINED);
        Promoter.Result r = new Promoter(options).promote(dev.stretto.proxy.flow.model.Flow.of(flow),
                () -> directory != null ? SessionReader.read(directory, progress) : SessionReader.of(logs, progress));
        return new PromotionResult(r.flow(), r.decider(), r.episodes(), r.unanswered(), r.rounds());
    }

    private static double share(double d, String option) {
        if (!(d >= 0 && d <= 1)) {
            throw new IllegalArgumentException(option + " takes a number from 0 to 1, not " + d);
        }
        return d;
    }
}
