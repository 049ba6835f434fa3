package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.proxy.flow.arbiter.ArbiterScorer;
import dev.stretto.proxy.flow.file.ArbiterFiles;
import dev.stretto.proxy.flow.learn.arbiter.ArbiterImport;
import dev.stretto.proxy.flow.learn.arbiter.ArbiterLearner;
import dev.stretto.proxy.flow.learn.arbiter.TaskSplit;
import dev.stretto.proxy.flow.learn.sessions.Contracts;
import dev.stretto.proxy.flow.learn.sessions.SessionReader;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.InstantSource;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stretto learn} from session logs (stretto-learn sections 2 to 4): logs to episodes
 * (merging the logs of several servers), then one of three paths. Habit-only: every task
 * trains the habit and the flow has no arbiter. The arbiter path: some tasks are held out, the
 * habit learns from the others, the System-One model is asked at the held-out decisions, and
 * the arbiter is fitted on its answers (with {@code --refit-habit} the habit is then learned
 * again from every task). {@code --arbiter-from}: the habit from every task, the arbiter from a
 * file. Every session is its own task; only successful sessions train the habit.
 */
public final class FlowLearner {

    private final LearnOptions options;
    private final Progress progress;
    private final HabitLearner habit;
    private final InstantSource clock;

    /**
     * What learning made.
     *
     * @param flow     the flow
     * @param sessions how many sessions (episodes after merging) it was learned from
     */
    public record Result(Flow flow, int sessions) {
    }

    /**
     * @param clock gives {@code provenance.compiled_unix_ms}
     */
    public FlowLearner(LearnOptions options, Progress progress, InstantSource clock) {
        this.options = options;
        this.progress = progress;
        this.habit = new HabitLearner(options, progress, clock);
        this.clock = clock;
    }

    /**
     * Learns the flow from {@code logs} (in session order, the logs of several servers merged:
     * {@link SessionReader}).
     *
     * @throws FlowException       if the sessions cannot make a flow, or the arbiter's answers
     *                              cannot be had (the reason for the user)
     * @throws IOException          if a file cannot be read or is malformed
     * @throws InterruptedException if interrupted while waiting for the System-One model
     */
    public Result learn(List<SessionLog> logs) throws FlowException, IOException, InterruptedException {
        Sessions sessions = read(logs);
        Set<String> allTasks = new HashSet<>(sessions.tasks());
        Flow flow = switch (options.arbiter()) {
            case LearnOptions.HabitOnly h -> options.lookupCost() == null ? habit.learn(sessions, allTasks)
                    : tuned(habit.learn(sessions, allTasks), sessions);
            case LearnOptions.From from -> ArbiterImport.apply(habit.learn(sessions, allTasks), from.file());
            case LearnOptions.Fit fit -> withArbiter(sessions, fit);
        };
        return new Result(flow, sessions.episodes().size());
    }

    /** The flow with each site's threshold learned from the cost of a wasted lookup. */
    private Flow tuned(Flow flow, Sessions sessions) throws FlowException {
        // The folds' five flows are learned without a word: their lines would bury those of the flow itself.
        ThresholdTuning.Result r = new ThresholdTuning(new HabitLearner(options, Progress.NONE, clock),
                options.lookupCost(), options.perLookup()).tune(flow, sessions);
        String own = options.perLookup() ? " and " + r.flow().lookupThresholds().size() + " of single lookups" : "";
        progress.line("thresholds of " + r.flow().thresholds().size() + " sites" + own + ", a wasted lookup costing "
                + BigDecimal.valueOf(options.lookupCost()).stripTrailingZeros().toPlainString()
                + " turns saved, from the flows of " + r.folds() + " folds served on the others: " + r.used()
                + " lookups the agent made and " + r.wasted() + " it did not (at the default threshold "
                + r.usedBefore() + " and " + r.wastedBefore() + ")");
        return r.flow();
    }

    private Flow withArbiter(Sessions sessions, LearnOptions.Fit fit)
            throws FlowException, IOException, InterruptedException {
        List<Predicate> predicates = fit.predicates() == null ? List.of() : predicates(fit);
        TaskSplit split = TaskSplit.of(sessions.tasks(), sessions.episodes().size());
        progress.line("held out " + split.heldOut().size() + " of " + sessions.tasks().size()
                + " tasks to fit the arbiter on; the habit learns from the other " + split.training().size());
        Flow trained = habit.learn(sessions, new HashSet<>(split.training()));
        Flow asking = trained.withArbiter(trained.provenance(), predicates, predicates, List.of(), fit.oracle().model(),
                fit.manifestOptions());
        Set<String> heldOutTasks = new HashSet<>(split.heldOut());
        List<Episode> heldOut = sessions.episodes().stream().filter(e -> heldOutTasks.contains(e.taskId())).toList();
        ArbiterLearner.Result arbiter = new ArbiterLearner(fit, progress).learn(asking, heldOut);
        Flow base = trained;
        if (fit.refitHabit()) {
            progress.line("learning the habit again from every session (--refit-habit)");
            base = habit.learn(sessions, new HashSet<>(sessions.tasks()));
        }
        Provenance p = base.provenance();
        Provenance provenance = new Provenance(p.stretto(), p.sources(), p.habitEpisodes(), arbiter.cases().size(),
                p.compiledUnixMs(), p.conventions());
        return base.withArbiter(provenance, predicates, predicates,
                Collections.nCopies(ArbiterScorer.FOLDS, arbiter.fit().fold()), fit.oracle().model(),
                fit.manifestOptions());
    }

    private static List<Predicate> predicates(LearnOptions.Fit fit) throws IOException {
        try {
            return ArbiterFiles.predicates(Files.readString(fit.predicates(), StandardCharsets.UTF_8));
        } catch (FlowFormatException e) {
            throw new IOException(fit.predicates() + ": " + e.getMessage(), e);
        }
    }

    private Sessions read(List<SessionLog> logs) throws FlowException {
        return new Sessions(SessionReader.episodes(logs, options.domain(), options.rewards()), manifest(logs),
                Contracts.ofLogs(logs));
    }

    private FlowManifest manifest(List<SessionLog> sessions) throws FlowException {
        if (options.manifest() != null) {
            return options.manifest();
        }
        FlowManifest fromLogs = FlowManifest.of(Manifest.of(sessions, options.domain()));
        if (fromLogs.tools().isEmpty()) {
            throw new FlowException("the sessions" + (options.sessions() == null ? "" : " in " + options.sessions())
                    + " never listed the server's tools (no tools/list answer), so no tool is known to be"
                    + " read-only: pass --manifest FILE (stretto manifest writes one to edit)");
        }
        return fromLogs;
    }
}
