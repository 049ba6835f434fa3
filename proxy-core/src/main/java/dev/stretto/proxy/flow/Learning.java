package dev.stretto.proxy.flow;

import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.flow.learn.FlowLearner;
import dev.stretto.proxy.flow.learn.LearnOptions;
import dev.stretto.proxy.flow.learn.Rewards;
import dev.stretto.proxy.flow.learn.sessions.SessionReader;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code stretto learn} as a library: a flow learned from recorded sessions, the file the
 * reference's {@code stretto learn} writes from the same logs. The sessions come from a
 * directory of session logs, as the command reads them, or from memory (a {@code
 * MemoryRecording}'s {@code SessionLog}s); the logs one agent session left with several
 * servers are merged into one session whose tools are named {@code server::tool}.
 *
 * <pre>{@code
 * LearnedFlow learned = Learning.fromSessions(logs)
 *         .domain("retail")
 *         .habitOnly()
 *         .learn();
 * FlowFiles.write(learned.flow(), Path.of("retail.flow.json"));
 * }</pre>
 *
 * <p>Three ways to learn: {@link #habitOnly()} (every session trains the habit, the flow has no
 * arbiter and no model is asked), {@link #arbiter(Oracle)} (30% of the sessions are held out,
 * the System-One model is asked at their decisions and the arbiter is fitted on its answers)
 * and {@link #arbiterFrom(Path)} (the arbiter of a file). The project's {@code docs/learn.md}
 * describes each step. Not thread-safe; {@link #learn()} may be called again.
 */
public final class Learning {

    private final Path directory;
    private final List<SessionLog> logs;
    private String domain;
    private Path manifest;
    private Map<String, Double> rewards = Map.of();
    private Path rewardsFile;
    private boolean constants;
    private Double halfLife;
    private Double lookupCost;
    private boolean perLookup;
    private boolean bindSaid;
    private Oracle oracle;
    private Path arbiterFile;
    private double budget = 1.0;
    private Path predicates;
    private boolean everyRead;
    private boolean refitHabit;
    private boolean fitOptionsSet;
    private Progress progress = Progress.NONE;
    private InstantSource clock = InstantSource.system();

    private Learning(Path directory, List<SessionLog> logs) {
        this.directory = directory;
        this.logs = logs;
    }

    /**
     * Learning from the session logs of a directory: every {@code *.jsonl} directly in it, but
     * flow and confirm logs ({@code *.flow.jsonl}, {@code *.confirm.jsonl}).
     *
     * @param directory the directory {@code stretto-proxy --record} wrote to
     * @return learning with the defaults: habit-only, every session's reward 1
     */
    public static Learning fromDirectory(Path directory) {
        return new Learning(Objects.requireNonNull(directory, "directory"), null);
    }

    /**
     * Learning from sessions in memory.
     *
     * @param logs the sessions, in any order (they are taken in session order)
     * @return learning with the defaults: habit-only, every session's reward 1
     */
    public static Learning fromSessions(List<SessionLog> logs) {
        return new Learning(null, List.copyOf(logs));
    }

    /**
     * The flow's domain ({@code --domain}; required). A manifest's own domain wins.
     *
     * @param name the domain
     * @return this
     */
    public Learning domain(String name) {
        this.domain = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * Tool kinds and docs from a manifest file instead of the sessions' {@code tools/list}
     * answers ({@code --manifest}); input contracts still come from the logs.
     *
     * @param file a manifest, as {@code stretto manifest} writes one
     * @return this
     */
    public Learning manifest(Path file) {
        this.manifest = file;
        return this;
    }

    /**
     * The sessions' rewards; a session without one gets 1.0, and only sessions whose reward is 1
     * train.
     *
     * @param bySession rewards by session id
     * @return this
     */
    public Learning rewards(Map<String, Double> bySession) {
        this.rewards = Map.copyOf(bySession);
        this.rewardsFile = null;
        return this;
    }

    /**
     * The sessions' rewards from a file ({@code --rewards}): a JSON object of rewards by session
     * id.
     *
     * @param file the rewards file
     * @return this
     */
    public Learning rewardsFrom(Path file) {
        this.rewardsFile = Objects.requireNonNull(file, "file");
        this.rewards = Map.of();
        return this;
    }

    /**
     * Learns arguments that always took one value, and passes them ({@code --constants}).
     *
     * @param on true to learn them
     * @return this
     */
    public Learning constants(boolean on) {
        this.constants = on;
        return this;
    }

    /**
     * Weighs older sessions less in the habit ({@code --half-life N}): a session followed by k
     * newer ones counts 0.5^(k/N).
     *
     * @param sessions N, above 0
     * @return this
     * @throws IllegalArgumentException when it is not above 0
     */
    public Learning halfLife(double sessions) {
        if (!(sessions > 0.0)) {
            throw new IllegalArgumentException("--half-life must be > 0");
        }
        this.halfLife = sessions;
        return this;
    }

    /**
     * Learns each site's threshold from what a wasted lookup costs against a turn saved ({@code
     * --lookup-cost C}; habit-only flows only): flows learned from all but a fifth of the
     * sessions are served again offline on that fifth, and each site gets the threshold under
     * which the lookups the agent made, less {@code cost} times those it did not, come to most.
     * The flow then carries per-site thresholds (format 2, which the reference reads).
     *
     * @param cost what a wasted lookup costs, in turns saved; above 0
     * @return this
     * @throws IllegalArgumentException when it is not above 0 or not finite
     */
    public Learning lookupCost(double cost) {
        if (!(cost > 0.0) || Double.isInfinite(cost)) {
            throw new IllegalArgumentException("--lookup-cost must be a number above 0");
        }
        this.lookupCost = cost;
        return this;
    }

    /**
     * With the lookup cost, each lookup at each site also gets thresholds of its own ({@code
     * stretto learn --per-lookup}): one for each case of what the customer said (whether they
     * mentioned the lookup's picked values, else whether the result just before showed a new
     * value they mentioned), tuned the same way as the sites'. The flow then carries {@code
     * lookup_thresholds} (format 3, which only this build serves).
     *
     * @param perLookup whether to learn them
     * @return this
     */
    public Learning perLookup(boolean perLookup) {
        this.perLookup = perLookup;
        return this;
    }

    /**
     * Lookups also bind values the customer said ({@code stretto learn --bind-said}): learning
     * counts the string arguments whose value the customer had said as a whole token and no
     * earlier result held, by their shape (each ASCII digit a {@code 9}: {@code #W2378156} is
     * {@code #W9999999}); at a lookup, the tokens of the customer's words of a shape seen often
     * enough ({@code bindings.said}) become candidates after the values of earlier results, and
     * an argument no result holds can be bound from them alone. The flow then carries {@code
     * bindings.said} (format 3, which only this build serves). Works on every path: habit-only
     * (with or without the lookup cost and thresholds per lookup), the arbiter and the arbiter
     * of a file.
     *
     * @param on whether to learn and bind them
     * @return this
     */
    public Learning bindSaid(boolean on) {
        this.bindSaid = on;
        return this;
    }

    /**
     * Every session trains the habit, and the flow has no arbiter ({@code --habit-only}; the
     * default). No model is asked.
     *
     * @return this
     */
    public Learning habitOnly() {
        this.oracle = null;
        this.arbiterFile = null;
        return this;
    }

    /**
     * The arbiter path: 30% of the sessions are held out and the habit learns from the others;
     * at each decision of the held-out sessions the System-One model is asked what the served
     * arbiter would ask, and the arbiter is fitted on its answers (five identical folds). The
     * flow names the oracle's model.
     *
     * @param answering who answers: its cache first; the caller closes it
     * @return this
     */
    public Learning arbiter(Oracle answering) {
        this.oracle = Objects.requireNonNull(answering, "answering");
        this.arbiterFile = null;
        return this;
    }

    /**
     * The habit from every session, and the arbiter of a file ({@code --arbiter-from}): an
     * arbiter file ({@code stretto_arbiter}) or another flow with one.
     *
     * @param file the arbiter file or flow
     * @return this
     */
    public Learning arbiterFrom(Path file) {
        this.arbiterFile = Objects.requireNonNull(file, "file");
        this.oracle = null;
        return this;
    }

    /**
     * The arbiter path's budget ({@code --oracle-budget}, default 1): learning refuses to ask
     * when the questions not in the cache could cost more.
     *
     * @param dollars 0 or more
     * @return this
     * @throws IllegalArgumentException when it is negative or not finite
     */
    public Learning budget(double dollars) {
        if (!(dollars >= 0) || Double.isInfinite(dollars)) {
            throw new IllegalArgumentException("--oracle-budget must be a number of dollars, 0 or more");
        }
        this.budget = dollars;
        this.fitOptionsSet = true;
        return this;
    }

    /**
     * The arbiter path's yes/no questions to ask and weigh ({@code --predicates}).
     *
     * @param file {@code {"predicates": [...]}}, or null for none
     * @return this
     */
    public Learning predicates(Path file) {
        this.predicates = file;
        this.fitOptionsSet |= file != null;
        return this;
    }

    /**
     * The arbiter path offers every read tool at every site, not only the lookups that followed
     * it in training ({@code --manifest-options}).
     *
     * @param on true to offer every read tool
     * @return this
     */
    public Learning offerEveryRead(boolean on) {
        this.everyRead = on;
        this.fitOptionsSet |= on;
        return this;
    }

    /**
     * After fitting the arbiter, learns the habit again from every session ({@code
     * --refit-habit}).
     *
     * @param on true to learn it again
     * @return this
     */
    public Learning refitHabit(boolean on) {
        this.refitHabit = on;
        this.fitOptionsSet |= on;
        return this;
    }

    /**
     * Where the phases are told.
     *
     * @param to the progress, {@link Progress#NONE} by default
     * @return this
     */
    public Learning progress(Progress to) {
        this.progress = Objects.requireNonNull(to, "to");
        return this;
    }

    /**
     * The clock that gives the flow's {@code provenance.compiled_unix_ms}.
     *
     * @param source the clock, the system's by default
     * @return this
     */
    public Learning clock(InstantSource source) {
        this.clock = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Learns the flow.
     *
     * @return the flow and how many sessions it was learned from
     * @throws IllegalStateException when no domain is given, an option of the arbiter path is
     *                               given without {@link #arbiter(Oracle)}, or a lookup cost
     *                               with an arbiter
     * @throws IllegalArgumentException when the oracle was not opened by {@code
     *                                  OracleSettings.open()}
     * @throws FlowException         when the sessions cannot make a flow (none, none
     *                               successful, no tools known, too few to hold some out), or
     *                               the arbiter's answers cannot be had (no key, not in the
     *                               cache, over the budget, the service failing)
     * @throws IOException           when a log or a file cannot be read or is malformed (the
     *                               message names it)
     * @throws InterruptedException  when interrupted while waiting for the System-One model
     */
    public LearnedFlow learn() throws FlowException, IOException, InterruptedException {
        if (domain == null) {
            throw new IllegalStateException("learning needs the flow's domain");
        }
        if (lookupCost != null && (oracle != null || arbiterFile != null)) {
            throw new IllegalStateException("the lookup cost tunes the thresholds of the reach decider, which serves"
                    + " flows without an arbiter: learn habit-only");
        }
        if (perLookup && lookupCost == null) {
            throw new IllegalStateException("thresholds per lookup are tuned by the cost of a wasted lookup: give"
                    + " the lookup cost");
        }
        if (fitOptionsSet && oracle == null) {
            throw new IllegalStateException("the budget, predicates, every read tool offered and the habit refitted"
                    + " are options of the arbiter path: give an oracle");
        }
        LearnOptions.Arbiter arbiter = oracle != null
                ? new LearnOptions.Fit(OracleHandle.of(oracle), budget, predicates, everyRead, refitHabit)
                : arbiterFile != null ? new LearnOptions.From(arbiterFile) : new LearnOptions.HabitOnly();
        // In the order the command reads them: rewards, the logs, then the manifest.
        Map<String, Double> byId = rewardsFile != null ? Rewards.read(rewardsFile) : rewards;
        List<SessionLog> sessions = directory != null ? SessionReader.read(directory, progress)
                : SessionReader.of(logs, progress);
        LearnOptions options = new LearnOptions(directory, domain, manifest == null ? null : FlowManifest.of(Manifest.read(manifest)),
                byId, constants, halfLife, arbiter, lookupCost, perLookup, bindSaid);
        FlowLearner.Result learned = new FlowLearner(options, progress, clock).learn(sessions);
        return new LearnedFlow(learned.flow(), learned.sessions());
    }
}
