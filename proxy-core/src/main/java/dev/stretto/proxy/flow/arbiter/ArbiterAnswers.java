package dev.stretto.proxy.flow.arbiter;

import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.Response;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the System-One model answered to a {@link NextStepRequest}: the one-question answer
 * ({@code next}), the split answer ({@code go_on}, and {@code tool} at a site of two or more
 * lookups) and each predicate's probability of yes.
 *
 * @param next       the {@code next} answer's probability of each option, as answered
 * @param picked     the option the {@code next} answer chose
 * @param goOn       the probability that the agent makes another lookup now
 * @param shares     the {@code tool} answer's probability of each lookup; empty when not asked
 * @param predicates each predicate's probability of yes, by predicate id, in the flow's order
 */
public record ArbiterAnswers(Map<String, Double> next, String picked, double goOn, Map<String, Double> shares,
                             Map<String, Double> predicates) {

    /** Copies the maps. */
    public ArbiterAnswers {
        next = Collections.unmodifiableMap(new LinkedHashMap<>(next));
        Objects.requireNonNull(picked, "picked");
        shares = Collections.unmodifiableMap(new LinkedHashMap<>(shares));
        predicates = Collections.unmodifiableMap(new LinkedHashMap<>(predicates));
    }

    /**
     * The answers in {@code response} to the request at a site offering {@code offered}, or null
     * when the response is incomplete: a question asked has no answer, or an answer of another
     * kind (a choice to a yes/no question).
     */
    public static ArbiterAnswers of(Response response, List<String> offered, List<Predicate> predicates) {
        if (!(response.answers().get(NextStepRequest.NEXT) instanceof Answer.Choice next)
                || !(response.answers().get(NextStepRequest.GO_ON) instanceof Answer.Noul goOn)) {
            return null;
        }
        Map<String, Double> shares = Map.of();
        if (offered.size() > 1) {
            if (!(response.answers().get(NextStepRequest.TOOL) instanceof Answer.Choice tool)) {
                return null;
            }
            shares = tool.probabilities();
        }
        Map<String, Double> yes = new LinkedHashMap<>();
        for (Predicate p : predicates) {
            if (!(response.answers().get(NextStepRequest.PREDICATE + p.id()) instanceof Answer.Noul n)) {
                return null;
            }
            yes.put(p.id(), n.noul());
        }
        return new ArbiterAnswers(next.probabilities(), next.choice(), goOn.noul(), shares, yes);
    }

    /**
     * The split answer's probability of an option: handing back {@code 1 - go_on}; a lookup
     * {@code go_on} times its share in the {@code tool} answer, or all of {@code go_on} when
     * the site offers one lookup.
     */
    public double split(String option, List<String> offered) {
        if (!offered.contains(option)) {
            return 1 - goOn;
        }
        return offered.size() == 1 ? goOn : goOn * shares.getOrDefault(option, 0.0);
    }
}
