package dev.stretto.proxy.flow.arbiter;

import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.math.Libm;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The arbiter's features of the options at one decision (formats 2.5), each option's in
 * weight order: {@code ln} of the habit prior, of the {@code next} answer and of the split
 * answer (each at least 1e-6), 1 for {@code respond}, then for each weighed predicate the
 * logit of its probability of yes (clamped to [1e-4, 1 - 1e-4]) on the options it favors, and
 * last the reliability feature, the logit of the site's agreement rate on the option the
 * model picked. The reliability depends on the rates of the fold that judges (or, when
 * learning, of all cases), so it is added by {@link #withReliability(double)}. Logarithms are
 * the C library's, as the reference's, since the probabilities they give reach flow logs.
 */
public final class OptionFeatures {

    static final double MIN_PROBABILITY = 1e-6;
    static final double MIN_YES = 1e-4;

    private final List<String> options;
    private final double[][] base;
    private final int picked;

    private OptionFeatures(List<String> options, double[][] base, int picked) {
        this.options = List.copyOf(options);
        this.base = base;
        this.picked = picked;
    }

    /**
     * The features of a decision.
     *
     * @param offered    the lookups offered, sorted by name
     * @param habitPrior the habit prior of each option ({@code respond} included)
     * @param answers    the model's answers
     * @param weighed    the predicates the arbiter weighs
     * @param site       the tool whose call is the site (what {@code same_lookup} favors)
     */
    public static OptionFeatures of(List<String> offered, Map<String, Double> habitPrior, ArbiterAnswers answers,
                                    List<Predicate> weighed, String site) {
        List<String> options = options(offered);
        double[][] rows = new double[options.size()][];
        for (int i = 0; i < options.size(); i++) {
            String o = options.get(i);
            double[] x = new double[4 + weighed.size()];
            x[0] = ln(habitPrior.getOrDefault(o, 0.0));
            x[1] = ln(answers.next().getOrDefault(o, 0.0));
            x[2] = ln(answers.split(o, offered));
            x[3] = o.equals(Predictions.RESPOND) ? 1 : 0;
            for (int k = 0; k < weighed.size(); k++) {
                Predicate p = weighed.get(k);
                x[4 + k] = favors(p.favors(), o, site) ? logit(answers.predicates().get(p.id())) : 0;
            }
            rows[i] = x;
        }
        return new OptionFeatures(options, rows, options.indexOf(answers.picked()));
    }

    /** {@code respond} and the offered lookups, sorted by name. */
    public static List<String> options(List<String> offered) {
        List<String> options = new ArrayList<>(offered);
        if (!options.contains(Predictions.RESPOND)) {
            options.add(Predictions.RESPOND);
        }
        options.sort(CanonicalJson::compareCodePoints);
        return options;
    }

    /** How many weights a flow's folds need: four features, the weighed predicates, and reliability. */
    public static int weightCount(int weighed) {
        return 4 + weighed + 1;
    }

    /** The options, {@code respond} among them, sorted by name. */
    public List<String> options() {
        return options;
    }

    /** The index of the option the model's {@code next} answer picked, or -1 when it is none of them. */
    public int picked() {
        return picked;
    }

    /** Each option's features (rows in option order), the reliability {@code r} (an agreement rate) last. */
    public double[][] withReliability(double r) {
        double[][] rows = new double[base.length][];
        for (int i = 0; i < base.length; i++) {
            rows[i] = Arrays.copyOf(base[i], base[i].length + 1);
            rows[i][base[i].length] = i == picked ? logit(r) : 0;
        }
        return rows;
    }

    /** Whether a yes to a predicate favoring {@code favors} speaks for {@code option}. */
    static boolean favors(Predicate.Favors favors, String option, String site) {
        boolean respond = option.equals(Predictions.RESPOND);
        return switch (favors) {
            case Predicate.Named n -> switch (n.name()) {
                case "same_lookup" -> !respond && option.equals(site);
                case "any_lookup" -> !respond;
                default -> respond;
            };
            case Predicate.Lookup l -> option.equals(l.tool());
        };
    }

    /** {@code ln(max(p, 1e-6))}. */
    static double ln(double p) {
        return Libm.log(Math.max(p, MIN_PROBABILITY));
    }

    /** {@code ln(p / (1 - p))} of p clamped to [1e-4, 1 - 1e-4]. */
    public static double logit(double p) {
        double c = Math.min(Math.max(p, MIN_YES), 1 - MIN_YES);
        return Libm.log(c / (1 - c));
    }
}
