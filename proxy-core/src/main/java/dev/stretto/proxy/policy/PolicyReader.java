package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyException;
import dev.stretto.proxy.PolicyProblem;
import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a policy (a file's text, or a document built in code) into the {@link PolicyRules} a
 * session applies, checking everything: every key known, every value of its kind, every glob,
 * regex, pointer and directory valid, every rule with an id and an action. It finds every
 * problem at once, each with its line and column, and returns rules only when there is none:
 * a policy is used as written, or not at all.
 */
public final class PolicyReader {

    private static final Set<String> TOP = Set.of("$schema", "description", "rules", "budgets", "pinning",
            "server_requests", "ask_timeout");
    private static final Set<String> RULE = Set.of("id", "description", "tools", "annotations", "arguments", "action",
            "reason");
    private static final Set<String> BUDGET = Set.of("id", "description", "tools", "annotations", "arguments",
            "per_session", "per_tool", "per_minute", "action", "reason");
    private static final Set<String> CONDITION = Set.of("equals", "glob", "regex", "min", "max", "present", "within",
            "outside");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");
    private static final long MAX_LIMIT = 1_000_000_000L;
    private static final int MAX_REASON = 500;

    private final PolicyText text;
    private final String source;
    private final List<PolicyProblem> problems = new ArrayList<>();
    private final Map<String, String> ids = new HashMap<>();

    private PolicyReader(PolicyText text, String source) {
        this.text = text;
        this.source = source;
    }

    /**
     * Reads a policy file's text.
     *
     * @param source the file's name or path, as messages name it; its extension picks the
     *               syntax ({@code .yaml}/{@code .yml} YAML, {@code .json} JSON, else by the
     *               text's first character)
     * @throws PolicyException with every problem found
     */
    public static PolicyRules read(String text, String source) throws PolicyException {
        PolicyText tree;
        try {
            tree = PolicyText.read(text, PolicyText.Syntax.of(source, text));
        } catch (PolicyText.Unreadable e) {
            throw new PolicyException(List.of(e.problem(source)));
        }
        return new PolicyReader(tree, source).policy();
    }

    /**
     * Reads a policy built in code as a JSON document; problems name the JSON pointer of what
     * is wrong, since there are no lines.
     *
     * @throws PolicyException with every problem found
     */
    public static PolicyRules of(JsonNode document, String source) throws PolicyException {
        return new PolicyReader(new PolicyText(document, Map.of(), Map.of()), source).policy();
    }

    // ---- problems

    private void problem(PolicyText.Position at, String pointer, String message) {
        if (at.line() == 0) {
            message = (pointer.isEmpty() ? "the policy" : "at " + pointer) + ": " + message;
        }
        problems.add(new PolicyProblem(source, at.line(), at.column(), message));
    }

    /** A problem with the value at {@code pointer}. */
    private void atValue(String pointer, String message) {
        problem(text.value(pointer), pointer, message);
    }

    /** A problem with the key of the member at {@code pointer}. */
    private void atKey(String pointer, String message) {
        problem(text.key(pointer), pointer, message);
    }

    private static String child(String pointer, String key) {
        return pointer + "/" + key.replace("~", "~0").replace("/", "~1");
    }

    // ---- the policy

    private PolicyRules policy() throws PolicyException {
        JsonNode root = text.root();
        if (!root.isObject()) {
            atValue("", "a policy is an object with rules, budgets, pinning or server_requests");
            throw new PolicyException(problems);
        }
        knownKeys(root, "", TOP, "a policy");
        JsonNode r = root.get("rules");
        List<Rule> rules = list(r, "/rules", "rules is a list of rules", this::rule);
        JsonNode b = root.get("budgets");
        List<Budget> budgets = list(b, "/budgets", "budgets is a list of budgets", this::budget);
        Pinning pinning = pinning(root.get("pinning"));
        Map<String, PolicyAction> serverRequests = serverRequests(root.get("server_requests"));
        Duration askTimeout = askTimeout(root.get("ask_timeout"));
        if (problems.isEmpty() && (r == null || r.isEmpty()) && (b == null || b.isEmpty()) && pinning == Pinning.OFF
                && serverRequests.isEmpty()) {
            atValue("", "the policy says nothing (no rules, budgets, pinning or server_requests), so it would change"
                    + " nothing; give it a rule");
        }
        if (!problems.isEmpty()) {
            // In the file's order (those without a place, from a document built in code, keep theirs).
            problems.sort(java.util.Comparator.comparingInt(PolicyProblem::line).thenComparingInt(PolicyProblem::column));
            throw new PolicyException(problems);
        }
        return new PolicyRules(source, root, rules, budgets, pinning, serverRequests, askTimeout);
    }

    /** The items of the list at {@code pointer} ({@code node}, null when absent), each read by {@code read}. */
    private <T> List<T> list(JsonNode node, String pointer, String what, java.util.function.BiFunction<JsonNode, String,
            T> read) {
        List<T> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            atValue(pointer, what);
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            T item = read.apply(node.get(i), pointer + "/" + i);
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    private void knownKeys(JsonNode object, String pointer, Set<String> known, String what) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (!known.contains(e.getKey())) {
                String near = nearest(e.getKey(), known);
                atKey(child(pointer, e.getKey()), "unknown key '" + e.getKey() + "'"
                        + (near == null ? "" : " (did you mean '" + near + "'?)") + "; " + what + " has "
                        + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    // ---- rules and budgets

    private Rule rule(JsonNode node, String pointer) {
        if (!node.isObject()) {
            atValue(pointer, "a rule is an object with an id, what it matches and an action");
            return null;
        }
        knownKeys(node, pointer, RULE, "a rule");
        String id = id(node, pointer, "rule");
        String shown = id == null ? "the rule" : "the rule " + id;
        Match match = match(node, pointer);
        PolicyAction action = null;
        JsonNode a = node.get("action");
        if (a == null) {
            atValue(pointer, shown + " has no action (allow, log, ask, deny or hide)");
        } else if (!a.isTextual() || PolicyAction.named(a.textValue()).isEmpty()) {
            atValue(pointer + "/action", "the action of " + shown + " is allow, log, ask, deny or hide, not "
                    + shownValue(a));
        } else {
            action = PolicyAction.named(a.textValue()).orElseThrow();
        }
        if (action == PolicyAction.HIDE && node.has("arguments")) {
            atKey(pointer + "/arguments", shown + " hides tools from the listing, which has no arguments: a hide rule"
                    + " has no arguments conditions (use deny for calls with some arguments)");
        }
        String reason = reason(node, pointer);
        if (id == null || match == null || action == null) {
            return null;
        }
        return new Rule(id, match, action, reason);
    }

    private Budget budget(JsonNode node, String pointer) {
        if (!node.isObject()) {
            atValue(pointer, "a budget is an object with an id, what it counts, its limits and an action");
            return null;
        }
        knownKeys(node, pointer, BUDGET, "a budget");
        String id = id(node, pointer, "budget");
        String shown = id == null ? "the budget" : "the budget " + id;
        Match match = match(node, pointer);
        Long perSession = limit(node, pointer, "per_session");
        Long perTool = limit(node, pointer, "per_tool");
        Long perMinute = limit(node, pointer, "per_minute");
        if (!node.has("per_session") && !node.has("per_tool") && !node.has("per_minute")) {
            atValue(pointer, shown + " has no limit (per_session, per_tool or per_minute)");
        }
        PolicyAction action = null;
        JsonNode a = node.get("action");
        if (a == null) {
            atValue(pointer, shown + " has no action (log, ask or deny) for the calls past it");
        } else if (!a.isTextual() || !Set.of("log", "ask", "deny").contains(a.textValue())) {
            atValue(pointer + "/action", "the action of " + shown + " is log, ask or deny, not " + shownValue(a));
        } else {
            action = PolicyAction.named(a.textValue()).orElseThrow();
        }
        String reason = reason(node, pointer);
        if (id == null || match == null || action == null) {
            return null;
        }
        return new Budget(id, match, perSession, perTool, perMinute, action, reason);
    }

    private String id(JsonNode node, String pointer, String what) {
        JsonNode id = node.get("id");
        if (id == null) {
            atValue(pointer, "the " + what + " has no id; give each " + what + " an id, which refusals and the log name");
            return null;
        }
        if (!id.isTextual() || !ID.matcher(id.textValue()).matches()) {
            atValue(pointer + "/id", "an id is letters, digits and . _ : - (at most 64, starting with a letter or a"
                    + " digit), not " + shownValue(id));
            return null;
        }
        String earlier = ids.putIfAbsent(id.textValue(), pointer);
        if (earlier != null) {
            atValue(pointer + "/id", "the id " + id.textValue() + " is taken by another rule or budget (line "
                    + text.value(earlier).line() + ")");
            return null;
        }
        return id.textValue();
    }

    private String reason(JsonNode node, String pointer) {
        JsonNode r = node.get("reason");
        if (r == null) {
            return null;
        }
        if (!r.isTextual() || r.textValue().isBlank()) {
            atValue(pointer + "/reason", "a reason is a sentence, as the agent is told it");
            return null;
        }
        String s = r.textValue().strip();
        if (s.length() > MAX_REASON || s.chars().anyMatch(c -> c == '\n' || c == '\r')) {
            atValue(pointer + "/reason", "a reason is one line of at most " + MAX_REASON + " characters");
            return null;
        }
        return s;
    }

    private Long limit(JsonNode node, String pointer, String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || v.bigIntegerValue().signum() < 0
                || v.bigIntegerValue().compareTo(java.math.BigInteger.valueOf(MAX_LIMIT)) > 0) {
            atValue(pointer + "/" + key, key + " is a whole number of calls from 0 to " + MAX_LIMIT + ", not "
                    + shownValue(v));
            return null;
        }
        return v.longValue();
    }

    /** The tools, annotations and arguments of a rule or budget; null when one is wrong. */
    private Match match(JsonNode node, String pointer) {
        int before = problems.size();
        List<Glob> tools = new ArrayList<>();
        JsonNode t = node.get("tools");
        if (t != null) {
            if (!t.isArray() || t.isEmpty()) {
                atValue(pointer + "/tools", "tools is a list of tool names or globs, such as [\"read_*\"] (leave it out"
                        + " for every tool)");
            } else {
                for (int i = 0; i < t.size(); i++) {
                    JsonNode g = t.get(i);
                    if (!g.isTextual()) {
                        atValue(pointer + "/tools/" + i, "a tool is named by a string, not " + shownValue(g));
                        continue;
                    }
                    try {
                        tools.add(Glob.compile(g.textValue()));
                    } catch (IllegalArgumentException e) {
                        atValue(pointer + "/tools/" + i, e.getMessage());
                    }
                }
            }
        }
        Map<Hint, Set<Hint.Value>> annotations = new EnumMap<>(Hint.class);
        JsonNode a = node.get("annotations");
        if (a != null) {
            annotations(a, pointer + "/annotations", annotations);
        }
        List<Condition> conditions = new ArrayList<>();
        JsonNode args = node.get("arguments");
        if (args != null) {
            if (!args.isObject() || args.isEmpty()) {
                atValue(pointer + "/arguments", "arguments maps JSON pointers to conditions, such as {\"/path\":"
                        + " {\"outside\": \"/srv/data\"}}");
            } else {
                for (Map.Entry<String, JsonNode> e : args.properties()) {
                    Condition c = condition(e.getKey(), e.getValue(), child(pointer + "/arguments", e.getKey()));
                    if (c != null) {
                        conditions.add(c);
                    }
                }
            }
        }
        return problems.size() > before ? null : new Match(tools, annotations, conditions);
    }

    private void annotations(JsonNode a, String pointer, Map<Hint, Set<Hint.Value>> out) {
        if (!a.isObject() || a.isEmpty()) {
            atValue(pointer, "annotations maps the server's hints (readOnlyHint, destructiveHint, idempotentHint,"
                    + " openWorldHint) to true, false or absent");
            return;
        }
        for (Map.Entry<String, JsonNode> e : a.properties()) {
            String at = child(pointer, e.getKey());
            Hint hint = Hint.keyed(e.getKey()).orElse(null);
            if (hint == null) {
                String near = nearest(e.getKey(), Set.of("readOnlyHint", "destructiveHint", "idempotentHint",
                        "openWorldHint"));
                atKey(at, "unknown hint '" + e.getKey() + "'" + (near == null ? "" : " (did you mean '" + near + "'?)")
                        + "; the hints are readOnlyHint, destructiveHint, idempotentHint and openWorldHint");
                continue;
            }
            Set<Hint.Value> values = EnumSet.noneOf(Hint.Value.class);
            List<JsonNode> given = new ArrayList<>();
            if (e.getValue().isArray() && !e.getValue().isEmpty()) {
                e.getValue().forEach(given::add);
            } else {
                given.add(e.getValue());
            }
            for (JsonNode v : given) {
                Hint.Value value = v.isBoolean() ? (v.booleanValue() ? Hint.Value.TRUE : Hint.Value.FALSE)
                        : v.isTextual() && v.textValue().equals("absent") ? Hint.Value.ABSENT : null;
                if (value == null) {
                    atValue(at, hint.key() + " is true, false or absent (the server does not say), or a list of"
                            + " them, not " + shownValue(e.getValue()));
                    break;
                }
                values.add(value);
            }
            out.put(hint, values);
        }
    }

    private Condition condition(String key, JsonNode node, String pointer) {
        Pointer where;
        try {
            where = Pointer.parse(key);
        } catch (IllegalArgumentException e) {
            atKey(pointer, e.getMessage());
            return null;
        }
        if (!node.isObject() || node.isEmpty()) {
            atValue(pointer, "a condition is an object of tests (equals, glob, regex, min, max, present, within,"
                    + " outside), such as {\"glob\": \"*.md\"}");
            return null;
        }
        knownKeys(node, pointer, CONDITION, "a condition");
        int before = problems.size();
        Boolean present = null;
        JsonNode p = node.get("present");
        if (p != null) {
            if (!p.isBoolean()) {
                atValue(pointer + "/present", "present is true or false, not " + shownValue(p));
            } else {
                present = p.booleanValue();
                if (!present && node.size() > 1) {
                    atKey(pointer + "/present", "present: false says the value is not there, so there is nothing for"
                            + " the other tests to test");
                }
            }
        }
        List<Condition.Test> tests = new ArrayList<>();
        JsonNode eq = node.get("equals");
        if (eq != null) {
            tests.add(new Condition.Equals(eq));
        }
        JsonNode g = node.get("glob");
        if (g != null) {
            if (!g.isTextual()) {
                atValue(pointer + "/glob", "a glob is a string, not " + shownValue(g));
            } else {
                try {
                    tests.add(new Condition.GlobTest(Glob.compile(g.textValue())));
                } catch (IllegalArgumentException e) {
                    atValue(pointer + "/glob", e.getMessage());
                }
            }
        }
        JsonNode r = node.get("regex");
        if (r != null) {
            if (!r.isTextual()) {
                atValue(pointer + "/regex", "a regex is a string, not " + shownValue(r));
            } else {
                try {
                    tests.add(new Condition.RegexTest(Regex.compile(r.textValue())));
                } catch (IllegalArgumentException e) {
                    atValue(pointer + "/regex", e.getMessage());
                }
            }
        }
        BigDecimal min = bound(node, pointer, "min");
        BigDecimal max = bound(node, pointer, "max");
        if (min != null && max != null && min.compareTo(max) > 0) {
            atValue(pointer + "/max", "max " + max.toPlainString() + " is below min " + min.toPlainString()
                    + ", so no value passes");
        }
        if (min != null || max != null) {
            tests.add(new Condition.Range(min, max));
        }
        List<Path> within = directories(node, pointer, "within");
        if (within != null) {
            tests.add(new Condition.Within(within));
        }
        List<Path> outside = directories(node, pointer, "outside");
        if (outside != null) {
            tests.add(new Condition.Outside(outside));
        }
        return problems.size() > before ? null : new Condition(where, present, tests);
    }

    private BigDecimal bound(JsonNode node, String pointer, String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            atValue(pointer + "/" + key, key + " is a number, not " + shownValue(v));
            return null;
        }
        return v.decimalValue();
    }

    private List<Path> directories(JsonNode node, String pointer, String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            return null;
        }
        List<JsonNode> given = new ArrayList<>();
        if (v.isArray() && !v.isEmpty()) {
            v.forEach(given::add);
        } else {
            given.add(v);
        }
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            JsonNode d = given.get(i);
            String at = v.isArray() ? pointer + "/" + key + "/" + i : pointer + "/" + key;
            if (!d.isTextual() || !d.textValue().startsWith("/") || d.textValue().indexOf('\0') >= 0) {
                atValue(at, key + " names directories by absolute paths (a string, or a list of them), such as"
                        + " \"/srv/data\", not " + shownValue(d));
                continue;
            }
            try {
                out.add(Path.of(d.textValue()).normalize());
            } catch (InvalidPathException e) {
                atValue(at, key + ": not a usable path: " + shownValue(d));
            }
        }
        return out;
    }

    // ---- pinning, the server's requests, the timeout

    private Pinning pinning(JsonNode v) {
        if (v == null) {
            return Pinning.OFF;
        }
        for (Pinning p : Pinning.values()) {
            if (v.isTextual() && p.wireName().equals(v.textValue())) {
                return p;
            }
        }
        atValue("/pinning", "pinning is off, log, deny or end, not " + shownValue(v));
        return Pinning.OFF;
    }

    private Map<String, PolicyAction> serverRequests(JsonNode v) {
        Map<String, PolicyAction> out = new LinkedHashMap<>();
        if (v == null) {
            return out;
        }
        if (!v.isObject()) {
            atValue("/server_requests", "server_requests maps the server's requests (" + String.join(", ",
                    PolicyRules.SERVER_REQUESTS) + ") to allow or deny");
            return out;
        }
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            String at = child("/server_requests", e.getKey());
            if (!PolicyRules.SERVER_REQUESTS.contains(e.getKey())) {
                String near = nearest(e.getKey(), new HashSet<>(PolicyRules.SERVER_REQUESTS));
                atKey(at, "unknown request '" + e.getKey() + "'" + (near == null ? "" : " (did you mean '" + near
                        + "'?)") + "; the server's requests are " + String.join(", ", PolicyRules.SERVER_REQUESTS));
                continue;
            }
            JsonNode a = e.getValue();
            if (!a.isTextual() || !Set.of("allow", "deny").contains(a.textValue())) {
                atValue(at, e.getKey() + " is allow or deny, not " + shownValue(a));
                continue;
            }
            out.put(e.getKey(), PolicyAction.named(a.textValue()).orElseThrow());
        }
        return out;
    }

    private Duration askTimeout(JsonNode v) {
        if (v == null) {
            return PolicyRules.ASK_TIMEOUT;
        }
        if (!v.isNumber() || v.decimalValue().signum() <= 0 || v.decimalValue().compareTo(BigDecimal.valueOf(86_400)) > 0) {
            atValue("/ask_timeout", "ask_timeout is a number of seconds, more than 0 and at most 86400, not "
                    + shownValue(v));
            return PolicyRules.ASK_TIMEOUT;
        }
        return Duration.ofMillis(Math.max(1, v.decimalValue().movePointRight(3).longValue()));
    }

    // ---- helpers

    private static String shownValue(JsonNode v) {
        String s = dev.stretto.trace.json.CanonicalJson.write(v);
        return s.length() > 60 ? s.substring(0, 59) + "…" : s;
    }

    /** The known key nearest to {@code key} (at most two edits away, or the same but for case), or null. */
    static String nearest(String key, Set<String> known) {
        String best = null;
        int bestDistance = 3;
        for (String k : known.stream().sorted().toList()) {
            int d = k.equalsIgnoreCase(key) ? 0 : distance(key, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
