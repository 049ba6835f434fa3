package dev.stretto.proxy.flow.model;

import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.trace.manifest.ToolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A learned flow: everything a {@code *.flow.json} file holds, in file order. A flow predicts
 * the read-only lookups an agent makes next after one of its calls, binds their arguments
 * from earlier results, and says how sure it is; the proxy makes the likely ones itself and
 * hands their results back with the call's answer.
 *
 * <p>Files are read and written by {@link dev.stretto.proxy.flow.file.FlowFile}.
 *
 * @param format      the format version: 1, or 2 when {@link #thresholds()} or a format-2
 *                    field of {@link #bindings()} is present, or 3 when
 *                    {@link #lookupThresholds()} or {@code bindings.said} is
 * @param provenance  where the flow came from
 * @param vocab       the action vocabulary in id order: {@code Respond} (id 0), then the tools
 *                    sorted by name; id {@code vocab.size()} stands for any other action
 * @param manifest    the server's tools and their kinds
 * @param map         code features read from tool outputs (usually empty)
 * @param group       the habit's group for live episodes (1 in flows learned without goals)
 * @param habit       the next-action model
 * @param sites       where lookups may follow
 * @param predicates  the yes/no questions asked with each next-step question of the arbiter
 * @param weighed     the predicates the arbiter weighs
 * @param folds       the arbiter: five fitted models, or none
 * @param bindings    how lookup arguments are bound
 * @param model       the System-One model the arbiter asks, {@code ""} without an arbiter
 * @param program     the flow's run; null when the file has none, which means the standard run
 * @param promoted    the promotion record, or null when the flow was never promoted
 * @param thresholds  per-site decision thresholds (above 1 switches a site off), sorted
 * @param contracts   per tool, the input contract pinned when the flow was learned, sorted
 * @param reach       the counts of the reach decider, or null
 * @param lookupThresholds thresholds of single lookups at single sites by what the customer
 *                    said (format 3), {@link LookupThresholds#NONE} when there are none
 */
public record Flow(int format, Provenance provenance, List<Action> vocab, FlowManifest manifest, FeatureMap map,
                   long group, Habit habit, Sites sites, List<Predicate> predicates, List<Predicate> weighed,
                   List<Fold> folds, Bindings bindings, String model, Program program, Promoted promoted,
                   Map<String, Double> thresholds, Map<String, String> contracts, Backoff reach,
                   LookupThresholds lookupThresholds)
        implements dev.stretto.proxy.flow.Flow {

    /**
     * Copies every collection.
     *
     * @throws IllegalArgumentException when the format is not 1, 2 or 3, or is 1 while a format-2
     *                                  field is present, or below 3 while lookup thresholds
     *                                  or said shapes are, or the habit's or reach's vocabulary
     *                                  size is not the vocabulary's plus one
     */
    public Flow {
        Objects.requireNonNull(provenance, "provenance");
        vocab = Sorted.list(vocab, "vocab");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(habit, "habit");
        Objects.requireNonNull(sites, "sites");
        predicates = Sorted.list(predicates, "predicates");
        weighed = Sorted.list(weighed, "weighed");
        folds = Sorted.list(folds, "folds");
        Objects.requireNonNull(bindings, "bindings");
        Objects.requireNonNull(model, "model");
        thresholds = Sorted.byName(thresholds, "thresholds");
        contracts = Sorted.byName(contracts, "contracts");
        Objects.requireNonNull(lookupThresholds, "lookupThresholds");
        if (format < 1 || format > 3) {
            throw new IllegalArgumentException("flow format " + format + " is not supported (this build reads 1 to 3)");
        }
        List<String> v3 = format3Fields(bindings, lookupThresholds);
        if (format < 3 && !v3.isEmpty()) {
            throw new IllegalArgumentException("a flow of format " + format + " cannot carry " + String.join(", ", v3)
                    + " (they need format 3)");
        }
        List<String> v2 = format2Fields(bindings, thresholds);
        if (format == 1 && !v2.isEmpty()) {
            throw new IllegalArgumentException("a flow of format 1 cannot carry " + String.join(", ", v2)
                    + " (they need format 2)");
        }
        checkVocabSize("habit.base", habit.base(), vocab.size());
        if (reach != null) {
            checkVocabSize("reach", reach, vocab.size());
        }
    }

    private static void checkVocabSize(String where, Backoff model, int actions) {
        if (model.vocabSize() != actions + 1) {
            throw new IllegalArgumentException(where + ".vocab_size is " + model.vocabSize() + ", but the vocabulary"
                    + " has " + actions + " actions, so it should be " + (actions + 1) + " (one more for any other)");
        }
    }

    /**
     * A flow of the given format without lookup thresholds.
     */
    public Flow(int format, Provenance provenance, List<Action> vocab, FlowManifest manifest, FeatureMap map,
                long group, Habit habit, Sites sites, List<Predicate> predicates, List<Predicate> weighed,
                List<Fold> folds, Bindings bindings, String model, Program program, Promoted promoted,
                Map<String, Double> thresholds, Map<String, String> contracts, Backoff reach) {
        this(format, provenance, vocab, manifest, map, group, habit, sites, predicates, weighed, folds, bindings, model,
                program, promoted, thresholds, contracts, reach, LookupThresholds.NONE);
    }

    /**
     * A flow without lookup thresholds whose format is the lowest that holds it: 3 when {@code
     * bindings} has said shapes, 2 when {@code thresholds} or a format-2 field of {@code
     * bindings} is present, else 1 (what {@code stretto learn} writes).
     */
    public Flow(Provenance provenance, List<Action> vocab, FlowManifest manifest, FeatureMap map, long group,
                Habit habit, Sites sites, List<Predicate> predicates, List<Predicate> weighed, List<Fold> folds,
                Bindings bindings, String model, Program program, Promoted promoted, Map<String, Double> thresholds,
                Map<String, String> contracts, Backoff reach) {
        this(provenance, vocab, manifest, map, group, habit, sites, predicates, weighed, folds, bindings, model,
                program, promoted, thresholds, contracts, reach, LookupThresholds.NONE);
    }

    /**
     * A flow whose format is the lowest that holds it: 3 when {@code lookupThresholds} or said
     * shapes of {@code bindings} are present, 2 when {@code thresholds} or a format-2 field of {@code bindings} is, else 1
     * (what {@code stretto learn} writes).
     */
    public Flow(Provenance provenance, List<Action> vocab, FlowManifest manifest, FeatureMap map, long group,
                Habit habit, Sites sites, List<Predicate> predicates, List<Predicate> weighed, List<Fold> folds,
                Bindings bindings, String model, Program program, Promoted promoted, Map<String, Double> thresholds,
                Map<String, String> contracts, Backoff reach, LookupThresholds lookupThresholds) {
        this(!format3Fields(bindings, lookupThresholds).isEmpty() ? 3 : format2Fields(bindings, thresholds).isEmpty() ? 1 : 2, provenance,
                vocab, manifest, map, group, habit, sites, predicates, weighed, folds, bindings, model, program,
                promoted, thresholds, contracts, reach, lookupThresholds);
    }

    /** The fields that need format 2 and are present, in file order. */
    public static List<String> format2Fields(Bindings bindings, Map<String, Double> thresholds) {
        List<String> names = new ArrayList<>();
        names.addAll(Objects.requireNonNull(bindings, "bindings").format2Fields());
        if (!Objects.requireNonNull(thresholds, "thresholds").isEmpty()) {
            names.add("thresholds");
        }
        return names;
    }

    /** The fields that need format 3 and are present, in file order. */
    public static List<String> format3Fields(Bindings bindings, LookupThresholds lookupThresholds) {
        List<String> names = new ArrayList<>(Objects.requireNonNull(bindings, "bindings").format3Fields());
        if (!Objects.requireNonNull(lookupThresholds, "lookupThresholds").isEmpty()) {
            names.add("lookup_thresholds");
        }
        return names;
    }

    /**
     * This flow with an arbiter: its predicates, the weighed ones, the folds, the model it asks,
     * the provenance that counts its cases, and whether every read tool is offered at every
     * site. The format stays as it is (an arbiter needs none of format 2).
     */
    public Flow withArbiter(Provenance newProvenance, List<Predicate> newPredicates, List<Predicate> newWeighed,
                            List<Fold> newFolds, String newModel, boolean everyRead) {
        Sites s = new Sites(sites.reads(), sites.next(), sites.feeds(), everyRead);
        return new Flow(format, newProvenance, vocab, manifest, map, group, habit, s, newPredicates, newWeighed,
                newFolds, bindings, newModel, program, promoted, thresholds, contracts, reach, lookupThresholds);
    }

    /** This flow with another promotion record (null for none); nothing else changes. */
    public Flow withPromoted(Promoted newPromoted) {
        return new Flow(format, provenance, vocab, manifest, map, group, habit, sites, predicates, weighed, folds,
                bindings, model, program, newPromoted, thresholds, contracts, reach, lookupThresholds);
    }

    /**
     * This flow with other per-site thresholds (empty for none), in the lowest format that holds
     * it: 2 with thresholds; nothing else changes.
     */
    public Flow withThresholds(Map<String, Double> newThresholds) {
        return new Flow(provenance, vocab, manifest, map, group, habit, sites, predicates, weighed, folds, bindings,
                model, program, promoted, newThresholds, contracts, reach, lookupThresholds);
    }

    /**
     * This flow with other lookup thresholds ({@link LookupThresholds#NONE} for none), in the
     * lowest format that holds it: 3 with lookup thresholds; nothing else changes.
     */
    public Flow withLookupThresholds(LookupThresholds newLookupThresholds) {
        return new Flow(provenance, vocab, manifest, map, group, habit, sites, predicates, weighed, folds, bindings,
                model, program, promoted, thresholds, contracts, reach, newLookupThresholds);
    }

    /** The program to run: the file's, or the standard run when it has none. */
    public Program programOrStandard() {
        return program == null ? Program.STANDARD : program;
    }

    /**
     * The model of a flow this package made.
     *
     * @throws IllegalArgumentException when a program made {@code flow} itself
     */
    public static Flow of(dev.stretto.proxy.flow.Flow flow) {
        if (flow instanceof Flow model) {
            return model;
        }
        throw new IllegalArgumentException("a flow must come from FlowFiles, Learning or Promotion, not be made by"
                + " a program (" + flow.getClass().getName() + ")");
    }

    @Override
    public String domain() {
        return manifest.domain();
    }

    @Override
    public Map<String, ToolKind> tools() {
        return manifest.tools();
    }

    @Override
    public boolean hasReach() {
        return reach != null;
    }

    /** Whether the flow carries an arbiter (fitted folds). */
    @Override
    public boolean hasArbiter() {
        return !folds.isEmpty();
    }

    /** The id of {@code tool} in the vocabulary, or {@code vocab.size()} (the unseen id) when unlisted. */
    public int actionId(String tool) {
        for (int i = 0; i < vocab.size(); i++) {
            if (vocab.get(i) instanceof Action.Tool t && t.name().equals(tool)) {
                return i;
            }
        }
        return vocab.size();
    }

    /** The tool of vocabulary id {@code id}, or null for {@code Respond} and the unseen id. */
    public String toolOf(int id) {
        return id >= 0 && id < vocab.size() && vocab.get(id) instanceof Action.Tool t ? t.name() : null;
    }

    /** The id of the {@code Respond} action in the vocabulary (0 in every flow stretto writes). */
    public int respondId() {
        int i = vocab.indexOf(Action.RESPOND);
        return i < 0 ? vocab.size() : i;
    }
}
