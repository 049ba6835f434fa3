package dev.stretto.proxy.flow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.io.JsonLines;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LogFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A flow log ({@code <session>.flow.jsonl}, which a session serving a flow writes; {@code
 * stretto flow} prints one) read back: its runs, each the decision lines logged after one agent
 * call and the run line that closed them. Blank lines are skipped; a
 * last line without a newline that does not parse is dropped (the proxy stopped while writing
 * it); any other bad line is an error naming the file and line.
 *
 * @param runs the runs, in log order
 */
public record FlowLog(List<Run> runs) {

    /**
     * Copies the runs.
     *
     * @throws NullPointerException when a run is null
     */
    public FlowLog {
        runs = List.copyOf(runs);
    }

    /**
     * The lines logged after one agent call.
     *
     * @param after     the agent's request id
     * @param decisions the decisions, in order
     * @param run       the run line, or null when the log ends (or the next run begins) without one
     */
    public record Run(JsonNode after, List<Decided> decisions, RunLine run) {
        /**
         * Copies the decisions.
         *
         * @throws NullPointerException when the id or a decision is null
         */
        public Run {
            Objects.requireNonNull(after, "after");
            after = after.deepCopy();
            decisions = List.copyOf(decisions);
        }

        /** {@return a copy of the agent's request id, as JSON trees are mutable} */
        @Override
        public JsonNode after() {
            return after.deepCopy();
        }

        /**
         * The agent's request id as a session's timeline spells it.
         *
         * @return a string id as it is, any other as its JSON text
         */
        public String callId() {
            return ToolCall.idText(after);
        }

        /**
         * The lookups actually made: decisions whose value in the run line is a tool number.
         *
         * @return how many; 0 without a run line
         */
        public int lookupsMade() {
            return run == null ? 0 : (int) run.sites().stream()
                    .filter(s -> s.address().startsWith("decide#") && s.value().isInt() && s.value().intValue() != 0)
                    .count();
        }
    }

    /**
     * A decision line.
     *
     * @param address   {@code decide#i}
     * @param lookup    whether a lookup was proposed
     * @param tool      the lookup's tool, or null
     * @param arguments the lookup's arguments, or null
     * @param reason    the hand-back reason, or null
     * @param site      the site, or null
     * @param probs     the options' probabilities
     * @param prob      the probability of the lookup proposed or explained, or null
     * @param binding   the binding's chance, or null
     * @param key       the oracle request's key, or null
     * @param ms        how long the decision took
     * @param shadow    whether it was logged in shadow mode
     * @param policy    the exploration record, or null
     */
    public record Decided(String address, boolean lookup, String tool, JsonNode arguments, String reason, String site,
                          Map<String, Double> probs, Double prob, Double binding, String key, long ms, boolean shadow,
                          JsonNode policy) {

        /**
         * Copies the probabilities.
         *
         * @throws NullPointerException when the address is null
         */
        public Decided {
            Objects.requireNonNull(address, "address");
            probs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(probs));
            arguments = arguments == null ? null : arguments.deepCopy();
            policy = policy == null ? null : policy.deepCopy();
        }

        /** {@return a copy of the lookup's arguments, or null} */
        @Override
        public JsonNode arguments() {
            return arguments == null ? null : arguments.deepCopy();
        }

        /** {@return a copy of the exploration record, or null} */
        @Override
        public JsonNode policy() {
            return policy == null ? null : policy.deepCopy();
        }

        /**
         * Whether the decision explored: exploration chose its lookup instead of the rule's.
         *
         * @return the exploration record's {@code explored}; false without one
         */
        public boolean explored() {
            return policy != null && policy.path("explored").asBoolean();
        }

        /**
         * The probability of the action taken under the exploring policy.
         *
         * @return the exploration record's {@code propensity}, or null without one
         */
        public Double propensity() {
            return policy == null ? null : policy.path("propensity").asDouble();
        }

        /**
         * What became of the decision, as its run's line records it.
         *
         * @param run the run line of the decision's run, or null when the run has none
         * @return the outcome
         */
        public Outcome outcome(RunLine run) {
            if (!lookup) {
                return Outcome.HANDED_BACK;
            }
            if (run == null) {
                return Outcome.UNKNOWN;
            }
            JsonNode value = run.valueAt(address);
            if (value == null || !value.isInt() || value.intValue() == 0) {
                return Outcome.NOT_MADE;
            }
            JsonNode ok = run.valueAt("outcome" + address.substring("decide".length()));
            if (ok == null) {
                return Outcome.NO_ANSWER;
            }
            return ok.asBoolean() ? Outcome.MADE : Outcome.FAILED;
        }
    }

    /** What became of a decision. */
    public enum Outcome {
        /** The lookup was made and answered. */
        MADE,
        /** The lookup was made and failed. */
        FAILED,
        /** The lookup was made and got no answer. */
        NO_ANSWER,
        /** The lookup was proposed but not made: in shadow mode, or not allowed. */
        NOT_MADE,
        /** The run has no run line, so what became of the lookup is not known. */
        UNKNOWN,
        /** The flow handed back to the agent. */
        HANDED_BACK
    }

    /**
     * A run line.
     *
     * @param call       the agent's tool
     * @param failed     whether the agent's call failed
     * @param maxLookups the run's lookup limit
     * @param sites      the sites visited
     * @param surprise   minus the sum of the outcomes' log-probabilities
     */
    public record RunLine(String call, boolean failed, int maxLookups, List<Site> sites, double surprise) {
        /**
         * Copies the sites.
         *
         * @throws NullPointerException when a site is null
         */
        public RunLine {
            sites = List.copyOf(sites);
        }

        /**
         * The value logged at an address.
         *
         * @param address {@code decide#i} or {@code outcome#i}
         * @return a copy of the value, or null when none is logged there
         */
        public JsonNode valueAt(String address) {
            return sites.stream().filter(s -> s.address().equals(address)).map(Site::value).findFirst().orElse(null);
        }
    }

    /**
     * A site of a run line.
     *
     * @param address {@code decide#i} or {@code outcome#i}
     * @param value   a tool number (decisions) or whether the lookup succeeded (outcomes)
     * @param logp    its log-probability
     */
    public record Site(String address, JsonNode value, double logp) {

        /**
         * Copies the value.
         *
         * @throws NullPointerException when the address or value is null
         */
        public Site {
            Objects.requireNonNull(address, "address");
            value = value.deepCopy();
        }

        /** {@return a copy of the value, as JSON trees are mutable} */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }
    }

    /**
     * The flow log that belongs next to the session log {@code sessionLog}: its name with
     * {@code .jsonl} replaced by {@code .flow.jsonl} ({@code <session>.flow.jsonl}), where the
     * proxy writes it by default.
     *
     * @param sessionLog the session log
     * @return the flow log's path beside it (which may not exist)
     */
    public static Path besideSessionLog(Path sessionLog) {
        return JsonLines.besideSessionLog(sessionLog, ".flow.jsonl");
    }

    /**
     * Reads a flow log file.
     *
     * @param file the file
     * @return its runs
     * @throws LogFormatException when a line is not a flow log line (the message names the file
     *                            and line)
     * @throws IOException        when it cannot be read
     */
    public static FlowLog read(Path file) throws IOException {
        return parse(JsonLines.text(file, "flow log"), file.toString());
    }

    /**
     * Parses a flow log's text.
     *
     * @param text the log's text
     * @param name the file's name, for messages
     * @return its runs
     * @throws LogFormatException for a line that is not a flow log line
     */
    public static FlowLog parse(String text, String name) throws LogFormatException {
        Runs runs = new Runs();
        JsonLines.read(text, name, runs::line);
        return new FlowLog(runs.end());
    }

    /** The runs as the lines come: decisions gather until their run line, or another call's line. */
    private static final class Runs {
        private final List<Run> runs = new ArrayList<>();
        private JsonNode after;
        private List<Decided> decisions = new ArrayList<>();

        void line(JsonNode node) {
            JsonNode lineAfter = required(node, "after");
            if (after != null && !after.equals(lineAfter)) {
                runs.add(new Run(after, decisions, null));
                decisions = new ArrayList<>();
                after = null;
            }
            if (node.has("run")) {
                runs.add(new Run(lineAfter, decisions, runLine(node.get("run"))));
                decisions = new ArrayList<>();
                after = null;
            } else {
                decisions.add(decision(node));
                after = lineAfter;
            }
        }

        List<Run> end() {
            if (after != null) {
                runs.add(new Run(after, decisions, null));
            }
            return runs;
        }
    }

    private static Decided decision(JsonNode n) {
        String action = string(n, "action", false);
        if (!action.equals("lookup") && !action.equals("hand_back")) {
            throw new IllegalArgumentException("\"action\" must be \"lookup\" or \"hand_back\", not \"" + action + "\"");
        }
        boolean lookup = action.equals("lookup");
        Map<String, Double> probs = new LinkedHashMap<>();
        JsonNode p = n.get("probs");
        if (p != null && !p.isNull()) {
            if (!p.isObject()) {
                throw new IllegalArgumentException("\"probs\" must be an object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isNumber()) {
                    throw new IllegalArgumentException("\"probs\" must map options to numbers");
                }
                probs.put(e.getKey(), e.getValue().doubleValue());
            }
        }
        JsonNode ms = n.get("ms");
        JsonNode shadow = n.get("shadow");
        JsonNode policy = n.get("policy");
        return new Decided(string(n, "address", false), lookup, lookup ? string(n, "tool", false) : null,
                lookup ? required(n, "arguments") : null, lookup ? null : string(n, "reason", false),
                string(n, "site", true), probs, number(n, "prob"), number(n, "binding"), string(n, "key", true),
                ms != null && ms.canConvertToLong() ? ms.longValue() : 0, shadow != null && shadow.asBoolean(),
                policy == null || policy.isNull() ? null : policy);
    }

    private static RunLine runLine(JsonNode r) {
        if (!r.isObject()) {
            throw new IllegalArgumentException("\"run\" must be an object");
        }
        List<Site> sites = new ArrayList<>();
        JsonNode s = required(r, "sites");
        if (!s.isArray()) {
            throw new IllegalArgumentException("\"sites\" must be a list");
        }
        for (JsonNode site : s) {
            if (!site.isArray() || site.size() != 3 || !site.get(0).isTextual() || !site.get(2).isNumber()) {
                throw new IllegalArgumentException("each site must be [address, value, logp]");
            }
            sites.add(new Site(site.get(0).textValue(), site.get(1), site.get(2).doubleValue()));
        }
        JsonNode failed = required(r, "failed");
        JsonNode max = required(r, "max_lookups");
        Double surprise = number(r, "surprise");
        if (!failed.isBoolean() || !max.canConvertToInt() || surprise == null) {
            throw new IllegalArgumentException("a run needs \"failed\" (true or false), \"max_lookups\" and \"surprise\"");
        }
        return new RunLine(string(r, "call", false), failed.booleanValue(), max.intValue(), sites, surprise);
    }

    private static JsonNode required(JsonNode n, String field) {
        return JsonLines.required(n, field, "flow log");
    }

    private static String string(JsonNode n, String field, boolean nullable) {
        return JsonLines.string(n, field, "flow log", nullable);
    }

    private static Double number(JsonNode n, String field) {
        return JsonLines.number(n, field);
    }
}
