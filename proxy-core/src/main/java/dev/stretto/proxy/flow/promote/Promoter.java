package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.arbiter.ArbiterScorer;
import dev.stretto.proxy.flow.decide.DeciderChoice;
import dev.stretto.proxy.flow.decide.FlowDecider;
import dev.stretto.proxy.flow.decide.Scorer;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.tools.ToolGate;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * {@code stretto promote} (stretto-learn section 6): the flow's decisions made again on the
 * sessions it ran in shadow, scored against what the agent did, and each site held to the
 * bar. The flow decides as served (promotion ignored), with its decider and the bar's
 * threshold; the arbiter's questions are answered by the oracle (by default replayed from the
 * cache the shadow runs filled). The newest scoring first chains through every site, then
 * again only through the promoted ones, up to 8 times, until the promotion repeats.
 */
public final class Promoter {

    /** The most re-scorings with chains through the promoted sites. */
    static final int MAX_ROUNDS = 8;

    private final PromoteOptions options;

    /** Scores as {@code options} ask; their oracle is the caller's, who closes it. */
    public Promoter(PromoteOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * What promotion found.
     *
     * @param flow       the flow with its promotion record
     * @param decider    the decider it was scored with
     * @param episodes   the episodes scored
     * @param unanswered the decisions left out, unanswered
     * @param rounds     the scoring passes made
     */
    public record Result(Flow flow, DeciderKind decider, int episodes, long unanswered, int rounds) {
    }

    /**
     * The sessions a flow ran in, read once the flow is known to be scorable: in session order,
     * the logs of several servers merged ({@code SessionReader}).
     */
    @FunctionalInterface
    public interface Sessions {
        /**
         * The logs.
         *
         * @throws FlowException when there are none
         * @throws IOException   when they cannot be read
         */
        List<SessionLog> read() throws FlowException, IOException;
    }

    /**
     * Scores {@code flow} on the sessions it ran in.
     *
     * @throws FlowException       when the flow cannot be scored that way, or there is nothing
     *                              to score (the reason for the user)
     * @throws IOException          when the sessions cannot be read
     * @throws InterruptedException when interrupted while waiting for the System-One model
     */
    public Result promote(Flow flow, Sessions logs) throws FlowException, IOException, InterruptedException {
        DeciderKind kind = decider(flow);
        Flow served = flow.withPromoted(null);
        Scorer scorer = switch (kind) {
            case HABIT -> Scorer.habit(served);
            case REACH -> Scorer.reach(served);
            case ARBITER -> arbiter(served);
        };
        OracleHandle oracle = options.oracle();
        if (kind == DeciderKind.ARBITER && oracle == null) {
            throw new FlowException("the flow decides with its arbiter, which asks the System-One model: give an"
                    + " oracle");
        }
        if (kind == DeciderKind.ARBITER && oracle.mode() == OracleMode.JEV && !oracle.hasKey()) {
            throw new FlowException("--oracle jev asks System-One the arbiter's questions that are not in the cache "
                    + oracle.cacheDirectory() + ", which needs a TypeSafe API key: set TYPESAFE_API_KEY or"
                    + " TYPESAFE_API_KEY_FILE, or replay the answers the shadow runs cached (--oracle replay)");
        }
        String domain = flow.manifest().domain();
        List<SessionLog> read;
        try {
            read = logs.read();
        } catch (FlowException noLogs) {
            throw new FlowException("no episodes to score: pass --sessions, --otel or --results for " + domain);
        }
        List<ScoredSession> sessions = read.stream().map(l -> ScoredSession.of(l, domain)).toList();
        return promote(flow, served, kind, scorer, sessions, oracle == null ? null : oracle.oracle());
    }

    private Result promote(Flow flow, Flow served, DeciderKind kind, Scorer scorer, List<ScoredSession> sessions,
                           Oracle oracle) throws InterruptedException {
        ToolGate gate = new ToolGate(served, null);
        Function<Episode, Decider> deciders = e -> new Decider(new FlowDecider(served, scorer,
                options.bar().threshold(), null, e.taskId()), gate, oracle);
        Scores scores;
        int rounds = 1;
        if (options.scoring() == PromoteOptions.Algorithm.SINGLE_PASS) {
            scores = new SinglePassScoring(deciders).score(sessions);
        } else {
            ChainedScoring chained = new ChainedScoring(deciders, options.perCall());
            scores = chained.score(sessions, null);
            Set<String> promoted = promotedSites(scores.promotion(options.bar()));
            while (rounds <= MAX_ROUNDS) {
                Scores again = chained.score(sessions, promoted);
                rounds++;
                Set<String> next = promotedSites(again.promotion(options.bar()));
                scores = again;
                if (next.equals(promoted)) {
                    break;
                }
                promoted = next;
            }
        }
        return new Result(flow.withPromoted(scores.promotion(options.bar())), kind, scores.episodes(),
                scores.unansweredCount(), rounds);
    }

    private static Set<String> promotedSites(Promoted p) {
        Set<String> sites = new TreeSet<>();
        p.sites().forEach((name, s) -> {
            if (s.promoted()) {
                sites.add(name);
            }
        });
        return sites;
    }

    /** The decider: {@code --decider}, else the arbiter when the flow has folds, else reach with its counts, else habit. */
    private DeciderKind decider(Flow flow) throws FlowException {
        String served = flow.reach() != null ? "reach" : "habit";
        if (options.decider() == DeciderKind.ARBITER && !flow.hasArbiter()) {
            throw new FlowException("the flow has no arbiter: promote it with --decider " + served);
        }
        if (options.decider() == DeciderKind.REACH && flow.reach() == null) {
            throw new FlowException("the flow has no counts for --decider reach: learn it again");
        }
        return options.decider() != null ? options.decider() : DeciderChoice.defaultFor(flow);
    }

    private static Scorer arbiter(Flow flow) throws FlowException {
        try {
            return new ArbiterScorer(flow);
        } catch (IllegalArgumentException e) {
            throw new FlowException("the flow's arbiter cannot be used: " + e.getMessage());
        }
    }
}
