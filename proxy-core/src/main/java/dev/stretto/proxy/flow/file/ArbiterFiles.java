package dev.stretto.proxy.flow.file;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import java.util.Objects;

/**
 * The two files that carry arbiter parts: an arbiter file ({@code stretto_arbiter: 1}, formats
 * 2.12), whose fitted fold {@code stretto learn --arbiter-from} copies into a flow, and a
 * predicates file ({@code {"predicates": [...]}}) of the yes/no questions
 * {@code stretto learn --predicates} asks and weighs. Predicates and folds read as in a flow.
 */
public final class ArbiterFiles {

    private ArbiterFiles() {
    }

    /**
     * An arbiter file.
     *
     * @param domain       the domain it was fitted on
     * @param sources      its provenance's sources (the agents' models it was fitted on)
     * @param arbiterCases the decisions it was fitted on
     * @param predicates   the predicates it asks
     * @param weighed      the predicates it weighs
     * @param fitted       the fitted fold
     * @param model        the System-One model it asks
     */
    public record Arbiter(String domain, List<String> sources, long arbiterCases, List<Predicate> predicates,
                          List<Predicate> weighed, Fold fitted, String model) {
        /** Copies the lists. */
        public Arbiter {
            Objects.requireNonNull(domain, "domain");
            sources = List.copyOf(sources);
            predicates = List.copyOf(predicates);
            weighed = List.copyOf(weighed);
            Objects.requireNonNull(fitted, "fitted");
            Objects.requireNonNull(model, "model");
        }
    }

    /** Whether {@code json} is an arbiter file (it has the {@code stretto_arbiter} field) rather than a flow. */
    public static boolean isArbiter(JsonNode json) {
        return json.isObject() && json.has("stretto_arbiter");
    }

    /**
     * Reads an arbiter file's JSON. Its {@code arbiter_cases} is read from its provenance (or,
     * when the provenance has none, from the top level).
     *
     * @throws FlowFormatException when it is not an arbiter file of version 1, naming the field
     */
    public static Arbiter arbiter(JsonNode json) throws FlowFormatException {
        try {
            Tree t = new Tree(json, "");
            Tree version = t.field("stretto_arbiter");
            if (version.count() != 1) {
                throw new Tree.Bad("arbiter file version " + version.node().asText()
                        + " is not supported (this build reads 1)");
            }
            Tree provenance = t.field("provenance");
            Tree cases = provenance.optional("arbiter_cases");
            if (cases == null) {
                cases = t.field("arbiter_cases");
            }
            return new Arbiter(t.field("domain").string(),
                    provenance.field("sources").list().stream().map(Tree::string).toList(), cases.count(),
                    predicates(t.field("predicates")), predicates(t.field("weighed")),
                    FlowReader.fold(t.field("fitted")), t.field("model").string());
        } catch (Tree.Bad e) {
            throw new FlowFormatException("not an arbiter file: " + e.getMessage());
        }
    }

    /**
     * Reads a predicates file's text: {@code {"predicates": [{"id", "favors", "question",
     * "yes", "no"}, ...]}}.
     *
     * @throws FlowFormatException when it is not such a file, naming the field
     */
    public static List<Predicate> predicates(String text) throws FlowFormatException {
        JsonNode root;
        try {
            root = CanonicalJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("not a predicates file: it is not JSON (" + e.getMessage() + ")");
        }
        try {
            List<Predicate> predicates = predicates(new Tree(root, "").field("predicates"));
            for (int i = 0; i < predicates.size(); i++) {
                for (int j = 0; j < i; j++) {
                    if (predicates.get(i).id().equals(predicates.get(j).id())) {
                        throw new Tree.Bad("predicates: the id " + predicates.get(i).id() + " appears twice");
                    }
                }
            }
            return predicates;
        } catch (Tree.Bad e) {
            throw new FlowFormatException("not a predicates file: " + e.getMessage());
        }
    }

    private static List<Predicate> predicates(Tree t) {
        return t.list().stream().map(FlowReader::predicate).toList();
    }
}
