package dev.stretto.cli.learn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.bindings.BindingStats;
import dev.stretto.cli.learn.features.FeatureCandidates;
import dev.stretto.cli.learn.features.FeatureMap;
import dev.stretto.cli.learn.features.FeatureSelection;
import dev.stretto.cli.learn.features.ToolOutputs;
import dev.stretto.cli.learn.features.ToolField;
import dev.stretto.cli.learn.habit.AlphaChain;
import dev.stretto.cli.learn.habit.BackoffCounts;
import dev.stretto.cli.learn.habit.EncodedEpisode;
import dev.stretto.cli.learn.habit.PrequentialLikelihood;
import dev.stretto.cli.learn.habit.Reach;
import dev.stretto.cli.learn.sessions.Contracts;
import dev.stretto.cli.learn.sessions.LearnManifest;
import dev.stretto.cli.learn.sessions.ServerMerge;
import dev.stretto.cli.learn.sessions.SessionDirectory;
import dev.stretto.proxy.math.Libm;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.ToolKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The habit-only pipeline of {@code stretto learn} (stretto-learn sections 2 and 3): session
 * logs to episodes (merging the logs of several servers), steps and vocab, alpha, code
 * features, habit, reach, sites and bindings. Every session is its own task and every task
 * trains; only successful sessions are counted.
 */
public final class FlowLearner {

    private final LearnOptions options;
    private final Progress progress;

    public FlowLearner(LearnOptions options, Progress progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * Learns the flow.
     *
     * @throws LearnException if the sessions cannot make a flow (the reason for the user)
     * @throws IOException    if a file cannot be read or is malformed
     */
    public LearnedFlow learn() throws LearnException, IOException {
        List<SessionLog> logs = readLogs();
        ServerMerge.Result merged = ServerMerge.merge(logs);
        for (String host : merged.keptApart()) {
            progress.line("kept the logs of host session " + host + " apart, as two servers of the same name ran"
                    + " in it at once; name each server with stretto-proxy --server-name, or give each session its"
                    + " own STRETTO_SESSION");
        }
        if (merged.mergedSessions() > 0) {
            progress.line("merged " + merged.mergedLogs() + " logs of several servers into " + merged.mergedSessions()
                    + " sessions, each tool named after its server (server::tool)");
        }
        List<SessionLog> sessions = merged.logs();
        LearnManifest manifest = manifest(sessions);
        SortedMap<String, String> contracts = Contracts.ofLogs(sessions);
        List<Episode> episodes = episodes(sessions);

        List<List<Step>> allSteps = episodes.stream().map(Steps::of).toList();
        Vocab vocab = Vocab.of(allSteps, manifest.tools().keySet());
        List<Integer> training = new ArrayList<>();
        for (int i = 0; i < episodes.size(); i++) {
            if (Rewards.success(episodes.get(i).reward())) {
                training.add(i);
            }
        }
        if (training.isEmpty()) {
            throw new LearnException("no successful training episodes to learn a habit from (set rewards to 1)");
        }
        List<List<Step>> steps = training.stream().map(allSteps::get).toList();
        List<List<JsonNode>> outputs = steps.stream().map(ToolOutputs::of).toList();
        int stepCount = steps.stream().mapToInt(List::size).sum();
        progress.line(episodes.size() + " sessions, " + training.size() + " successful with " + stepCount
                + " steps; " + vocab.tools().size() + " tools (" + reads(manifest) + " read-only)");

        List<EncodedEpisode> plain = encode(steps, outputs, vocab, FeatureMap.empty(), t -> 1.0, training);
        double alpha = alpha(plain, vocab, "alpha");

        List<ToolField> candidates = FeatureCandidates.discover(steps, outputs);
        List<String> taskIds = training.stream().map(i -> episodes.get(i).taskId()).toList();
        FeatureSelection.Result selected = new FeatureSelection(steps, outputs, taskIds, vocab, alpha)
                .select(candidates);
        FeatureMap map = selected.map();
        progress.line("code features: " + candidates.size() + " candidates, " + chosen(map, selected));

        List<EncodedEpisode> encoded = encode(steps, outputs, vocab, map, i -> weight(i, episodes.size()), training);
        if (!map.isEmpty()) {
            alpha = alpha(encoded, vocab, "alpha with code features");
        }
        BackoffCounts habit = BackoffCounts.of(encoded);
        Set<Integer> writes = manifest.tools().entrySet().stream().filter(t -> t.getValue() == ToolKind.WRITE)
                .map(t -> vocab.idOf(t.getKey())).collect(Collectors.toSet());
        BackoffCounts reach = Reach.count(encoded, writes::contains);
        Sites sites = Sites.of(steps, manifest.tools());

        BindingStats stats = new BindingStats(Set.copyOf(sites.reads()), options.constants());
        for (int i : training) {
            stats.add(episodes.get(i));
        }
        var bindings = stats.tables();
        progress.line("habit from " + training.size() + " sessions; " + sites.next().size() + " sites; bindings of "
                + bindings.args().size() + " lookups");

        TreeSet<String> sources = new TreeSet<>(ByteOrder.STRINGS);
        episodes.forEach(e -> sources.add(e.agentModel()));
        return new LearnedFlow(List.copyOf(sources), episodes.size(), training.size(), vocab, manifest, map, alpha,
                habit, sites, bindings, contracts, reach);
    }

    private List<SessionLog> readLogs() throws IOException, LearnException {
        int files = SessionDirectory.count(options.sessions());
        progress.start("reading " + files + " session logs", files);
        List<SessionLog> logs = SessionDirectory.read(options.sessions(), progress::update);
        if (logs.isEmpty()) {
            throw new LearnException("no session logs (*.jsonl) in " + options.sessions()
                    + ": record some with stretto-proxy --record DIR");
        }
        progress.line("read " + logs.size() + " session logs from " + options.sessions());
        return logs;
    }

    private LearnManifest manifest(List<SessionLog> sessions) throws IOException, LearnException {
        if (options.manifest() != null) {
            return LearnManifest.read(options.manifest());
        }
        LearnManifest fromLogs = LearnManifest.ofLogs(sessions, options.domain());
        if (fromLogs.tools().isEmpty()) {
            throw new LearnException("the sessions in " + options.sessions() + " never listed the server's tools"
                    + " (no tools/list answer), so no tool is known to be read-only: pass --manifest FILE"
                    + " (stretto manifest writes one to edit)");
        }
        return fromLogs;
    }

    private List<Episode> episodes(List<SessionLog> sessions) throws IOException {
        Map<String, Double> rewards = options.rewards() == null ? Map.of() : Rewards.read(options.rewards());
        List<Episode> episodes = new ArrayList<>(sessions.size());
        for (SessionLog log : sessions) {
            Episode e = Timeline.of(log).episode();
            double reward = rewards.getOrDefault(e.id(), 1.0);
            episodes.add(new Episode(e.id(), e.id(), 0, options.domain(), e.agentModel(), reward, e.events()));
        }
        return episodes;
    }

    private static List<EncodedEpisode> encode(List<List<Step>> steps, List<List<JsonNode>> outputs, Vocab vocab,
                                               FeatureMap map, java.util.function.IntToDoubleFunction weightOf,
                                               List<Integer> indices) {
        List<EncodedEpisode> encoded = new ArrayList<>(steps.size());
        for (int k = 0; k < steps.size(); k++) {
            encoded.add(Encoder.encode(steps.get(k), outputs.get(k), vocab, map, weightOf.applyAsDouble(indices.get(k))));
        }
        return encoded;
    }

    /** 1, or with a half-life h, 0.5^(age / h) where age counts the sessions after this one. */
    private double weight(int index, int sessions) {
        if (options.halfLife() == null) {
            return 1.0;
        }
        double age = sessions - 1 - index;
        return Libm.pow(0.5, age / options.halfLife());
    }

    private double alpha(List<EncodedEpisode> episodes, Vocab vocab, String what) {
        PrequentialLikelihood likelihood = new PrequentialLikelihood(episodes, vocab.modelSize());
        int steps = AlphaChain.WARM_UP + AlphaChain.SAMPLES;
        progress.start(what, steps);
        AlphaChain.Result chain = AlphaChain.run(likelihood, progress::update);
        progress.line(what + " " + chain.median() + " (90% between " + chain.lo() + " and " + chain.hi() + ", "
                + steps + " Metropolis-Hastings steps)");
        return chain.median();
    }

    private static long reads(LearnManifest manifest) {
        return manifest.tools().values().stream().filter(k -> k == ToolKind.READ).count();
    }

    private static String chosen(FeatureMap map, FeatureSelection.Result selected) {
        if (!map.isEmpty()) {
            return map.fields().values().stream().mapToInt(List::size).sum() + " chosen, " + map.ids().size()
                    + " combinations";
        }
        return Double.isNaN(selected.bestGain()) ? "none chosen"
                : String.format(Locale.ROOT, "none chosen (the best gains %.2f nats, less than 5)", selected.bestGain());
    }
}
