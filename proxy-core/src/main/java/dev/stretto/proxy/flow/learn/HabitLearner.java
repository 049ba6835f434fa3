package dev.stretto.proxy.flow.learn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.flow.learn.bindings.BindingReplay;
import dev.stretto.proxy.flow.learn.bindings.BindingStats;
import dev.stretto.proxy.flow.learn.features.FeatureCandidates;
import dev.stretto.proxy.flow.learn.features.FeatureSelection;
import dev.stretto.proxy.flow.learn.features.ToolField;
import dev.stretto.proxy.flow.learn.features.ToolOutputs;
import dev.stretto.proxy.flow.learn.habit.AlphaChain;
import dev.stretto.proxy.flow.learn.habit.BackoffCounts;
import dev.stretto.proxy.flow.learn.habit.EncodedEpisode;
import dev.stretto.proxy.flow.learn.habit.PrequentialLikelihood;
import dev.stretto.proxy.flow.learn.habit.Reach;
import dev.stretto.proxy.flow.model.Action;
import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Counts;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Habit;
import dev.stretto.proxy.flow.model.Program;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Steps;
import dev.stretto.proxy.math.Libm;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.manifest.ToolKind;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The habit-only pipeline of {@code stretto learn} (stretto-learn section 3): from the
 * successful episodes of the training tasks, alpha, code features, the habit, reach, sites
 * and bindings; the vocab and the provenance's sources from every episode. The flow it makes
 * has no arbiter.
 */
public final class HabitLearner {

    /** The version {@code provenance.stretto} names, as the reference's learn writes it. */
    public static final String VERSION = "0.1.0";
    /** The group of goal-free episodes. */
    private static final long GROUP = 1;

    private final LearnOptions options;
    private final Progress progress;
    private final InstantSource clock;

    /**
     * @param clock gives {@code provenance.compiled_unix_ms}
     */
    public HabitLearner(LearnOptions options, Progress progress, InstantSource clock) {
        this.options = options;
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * The habit-only flow of {@code sessions}, trained on the successful episodes of
     * {@code trainingTasks}.
     *
     * @throws FlowException when no episode of a training task was successful
     */
    public Flow learn(Sessions sessions, Set<String> trainingTasks) throws FlowException {
        List<Episode> episodes = sessions.episodes();
        FlowManifest manifest = sessions.manifest();
        List<List<AgentStep>> allSteps = episodes.stream().map(Steps::of).toList();
        Vocab vocab = Vocab.of(allSteps, manifest.tools().keySet());
        List<Integer> training = new ArrayList<>();
        for (int i = 0; i < episodes.size(); i++) {
            if (trainingTasks.contains(episodes.get(i).taskId()) && Rewards.success(episodes.get(i).reward())) {
                training.add(i);
            }
        }
        if (training.isEmpty()) {
            throw new FlowException("no successful training episodes to learn a habit from (set rewards to 1)");
        }
        List<List<AgentStep>> steps = training.stream().map(allSteps::get).toList();
        List<List<JsonNode>> outputs = steps.stream().map(ToolOutputs::of).toList();
        int stepCount = steps.stream().mapToInt(List::size).sum();
        boolean heldOut = trainingTasks.size() < sessions.tasks().size();
        progress.line(episodes.size() + " sessions, " + (heldOut ? trainingTasks.size() + " training, " : "")
                + training.size() + " successful with " + stepCount
                + " steps; " + vocab.tools().size() + " tools (" + reads(manifest) + " read-only)");

        List<EncodedEpisode> plain = encode(steps, outputs, vocab, FeatureMap.EMPTY, t -> 1.0, training);
        double alpha = alpha(plain, vocab, "alpha");

        List<ToolField> candidates = FeatureCandidates.discover(steps, outputs);
        List<String> taskIds = training.stream().map(i -> episodes.get(i).taskId()).toList();
        FeatureSelection.Result selected = new FeatureSelection(steps, outputs, taskIds, vocab, alpha)
                .select(candidates);
        FeatureMap map = selected.map();
        progress.line("code features: " + candidates.size() + " candidates, " + chosen(map, selected));

        List<EncodedEpisode> encoded = encode(steps, outputs, vocab, map, i -> weight(i, episodes.size()), training);
        if (!map.fields().isEmpty()) {
            alpha = alpha(encoded, vocab, "alpha with code features");
        }
        Backoff base = BackoffCounts.of(encoded).toBackoff(alpha, vocab.modelSize());
        Set<Integer> writes = manifest.tools().entrySet().stream().filter(t -> t.getValue() == ToolKind.WRITE)
                .map(t -> vocab.idOf(t.getKey())).collect(Collectors.toSet());
        Backoff reach = Reach.count(encoded, writes::contains).toBackoff(alpha, vocab.modelSize());
        Sites sites = SiteCounts.of(steps, manifest.tools());

        BindingStats stats = new BindingStats(Set.copyOf(sites.reads()), options.constants(), options.bindSaid());
        training.forEach(i -> stats.add(episodes.get(i)));
        List<Episode> trainingEpisodes = training.stream().map(episodes::get).toList();
        progress.start("replaying the binding rule", trainingEpisodes.size());
        Bindings bindings = new BindingReplay(stats.bindings()).replay(trainingEpisodes, progress::update);
        int saidArgs = bindings.said().size();
        String said = !options.bindSaid() ? "" : "; values the customer said for " + saidArgs
                + (saidArgs == 1 ? " argument" : " arguments");
        progress.line("habit from " + training.size() + " sessions; " + sites.next().size() + " sites; bindings of "
                + bindings.args().size() + " lookups" + said);

        TreeSet<String> sources = new TreeSet<>(ByteOrder.STRINGS);
        episodes.forEach(e -> sources.add(e.agentModel()));
        Provenance provenance = new Provenance(VERSION, List.copyOf(sources), training.size(), 0, clock.millis(), null);
        return new Flow(provenance, actions(vocab), manifest, map, GROUP, habit(base), sites, List.of(), List.of(),
                List.of(), bindings, "", Program.STANDARD, null, Map.of(), sessions.contracts(), reach);
    }

    private static List<Action> actions(Vocab vocab) {
        List<Action> actions = new ArrayList<>();
        actions.add(Action.RESPOND);
        vocab.tools().forEach(t -> actions.add(new Action.Tool(t)));
        return actions;
    }

    /** The habit of goal-free flows: the base, beta = alpha, and the top layer repeating level 2 under group 1. */
    private static Habit habit(Backoff base) {
        Map<Habit.GroupContext, Counts> top = new HashMap<>();
        base.levels().get(BackoffCounts.ORDER).forEach((h, c) -> top.put(new Habit.GroupContext(GROUP, h), c));
        return new Habit(base, base.alpha(), top);
    }

    private static List<EncodedEpisode> encode(List<List<AgentStep>> steps, List<List<JsonNode>> outputs, Vocab vocab,
                                               FeatureMap map, IntToDoubleFunction weightOf,
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
        progress.line(what + " " + CanonicalJson.formatDouble(chain.median()) + " (90% between "
                + CanonicalJson.formatDouble(chain.lo()) + " and " + CanonicalJson.formatDouble(chain.hi()) + ", "
                + steps + " Metropolis-Hastings steps)");
        return chain.median();
    }

    private static long reads(FlowManifest manifest) {
        return manifest.tools().values().stream().filter(k -> k == ToolKind.READ).count();
    }

    private static String chosen(FeatureMap map, FeatureSelection.Result selected) {
        if (!map.fields().isEmpty()) {
            return map.fields().values().stream().mapToInt(List::size).sum() + " chosen, " + map.ids().size()
                    + " combinations";
        }
        return Double.isNaN(selected.bestGain()) ? "none chosen"
                : String.format(Locale.ROOT, "none chosen (the best gains %.2f nats, less than 5)", selected.bestGain());
    }
}
