package dev.stretto.proxy.flow.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogFormatException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads labelled decisions: flow logs written with {@code --flow-explore}, whose decision lines
 * carry a {@code policy} and a {@code labels} list ({@code {"used", "detour", "turn"}} per
 * option, in the policy's option order; each a number or true/false). Run lines are skipped,
 * and so are blank lines and a last line without a newline that does not parse (the proxy
 * stopped while writing it). A decision line without a policy or labels, or whose labels do
 * not match its options, is an error naming the file and line.
 */
public final class LabelledLogs {

    private LabelledLogs() {
    }

    /** The labelled decisions of {@code file}, in order. */
    public static List<LabelledDecision> read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text, so not a flow log", e);
        }
        List<String> lines = text.lines().toList();
        List<LabelledDecision> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode n;
            try {
                n = CanonicalJson.parse(lines.get(i));
            } catch (IllegalArgumentException e) {
                if (i == lines.size() - 1 && !text.endsWith("\n")) {
                    break;
                }
                throw new LogFormatException(file.toString(), i + 1, "not JSON (" + e.getMessage() + ")");
            }
            if (!n.isObject()) {
                throw new LogFormatException(file.toString(), i + 1, "not a flow log line (not a JSON object)");
            }
            if (n.has("run")) {
                continue;
            }
            try {
                out.add(decision(n, file + ":" + (i + 1)));
            } catch (IllegalArgumentException e) {
                throw new LogFormatException(file.toString(), i + 1, e.getMessage());
            }
        }
        return out;
    }

    private static LabelledDecision decision(JsonNode n, String where) {
        JsonNode policy = n.get("policy");
        if (policy == null || !policy.isObject()) {
            throw new IllegalArgumentException("a decision without \"policy\": log decisions with stretto-proxy"
                    + " --flow-explore EPSILON (0 explores nothing and still logs them)");
        }
        JsonNode labels = n.get("labels");
        if (labels == null || !labels.isArray()) {
            throw new IllegalArgumentException("a decision without \"labels\": each decision needs a list of"
                    + " {\"used\", \"detour\", \"turn\"}, one per option of its policy");
        }
        JsonNode options = policy.get("options");
        if (options == null || !options.isArray()) {
            throw new IllegalArgumentException("\"policy\" has no \"options\" list");
        }
        if (options.size() != labels.size()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + options.size()
                    + " options of the policy");
        }
        List<LabelledDecision.Option> opts = new ArrayList<>();
        for (JsonNode o : options) {
            JsonNode binding = o.get("binding");
            opts.add(new LabelledDecision.Option(text(o, "tool", "an option"), number(o, "p", "an option"),
                    number(o, "habit", "an option"),
                    binding == null || binding.isNull() ? null : number(o, "binding", "an option")));
        }
        List<LabelledDecision.Label> ls = new ArrayList<>();
        for (JsonNode l : labels) {
            ls.add(new LabelledDecision.Label(label(l, "used"), label(l, "detour"), label(l, "turn")));
        }
        String action = text(n, "action", "the decision");
        String logged = switch (action) {
            case "lookup" -> text(n, "tool", "a lookup");
            case "hand_back" -> null;
            default -> throw new IllegalArgumentException("\"action\" must be \"lookup\" or \"hand_back\"");
        };
        JsonNode greedy = policy.get("greedy");
        LabelledDecision d = new LabelledDecision(where, text(n, "site", "the decision"), logged,
                text(policy, "decider", "the policy"), number(policy, "epsilon", "the policy"),
                greedy == null || greedy.isNull() ? null : text(policy, "greedy", "the policy"),
                number(policy, "propensity", "the policy"), opts, ls);
        d.loggedIndex();
        d.index(d.greedy());
        return d;
    }

    private static double label(JsonNode l, String field) {
        JsonNode v = l.get(field);
        if (v != null && v.isBoolean()) {
            return v.booleanValue() ? 1 : 0;
        }
        if (v != null && v.isNumber()) {
            return v.doubleValue();
        }
        throw new IllegalArgumentException("each label needs \"used\", \"detour\" and \"turn\" (numbers or true/false)");
    }

    private static String text(JsonNode n, String field, String what) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(what + " has no string \"" + field + "\"");
        }
        return v.textValue();
    }

    private static double number(JsonNode n, String field, String what) {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException(what + " has no number \"" + field + "\"");
        }
        return v.doubleValue();
    }
}
