package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.PolicyAction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A policy applied to one session: what the server has listed (each tool's hints, and its
 * fingerprint when pinning), how much of each budget is spent, and the verdicts on the calls,
 * the listings and the server's requests. The live proxy and {@code stretto policy test}'s
 * replay of a recorded session both go through it, so a replay says what the proxy would have
 * done. Not thread-safe: it belongs to the session's actor (or the replay).
 */
public final class PolicySession {

    private static final long MINUTE_MS = 60_000;

    private final PolicyRules policy;
    // The tool names the policy's globs name plainly, and the matches with argument conditions.
    private final Set<String> namedTools;
    private final List<Match> argumentMatches;
    // The tools as last listed: name -> annotations (null when the tool has none).
    private final Map<String, JsonNode> annotations = new HashMap<>();
    private final ToolPins pins = new ToolPins();
    // Tools whose listing differs from their pin, with the parts that changed.
    private final Map<String, List<String>> changed = new HashMap<>();
    private final Map<String, Long> spent = new HashMap<>();
    private final Map<String, Map<String, Long>> spentPerTool = new HashMap<>();
    private final Map<String, Deque<Long>> lastMinute = new HashMap<>();

    public PolicySession(PolicyRules policy) {
        this.policy = policy;
        Set<String> names = new HashSet<>();
        List<Match> withArguments = new ArrayList<>();
        for (Rule r : policy.rules()) {
            r.match().tools().stream().filter(Glob::plain).forEach(g -> names.add(g.text()));
            if (!r.match().arguments().isEmpty()) {
                withArguments.add(r.match());
            }
        }
        for (Budget b : policy.budgets()) {
            b.match().tools().stream().filter(Glob::plain).forEach(g -> names.add(g.text()));
            if (!b.match().arguments().isEmpty()) {
                withArguments.add(b.match());
            }
        }
        this.namedTools = Set.copyOf(names);
        this.argumentMatches = List.copyOf(withArguments);
    }

    /** The policy applied. */
    public PolicyRules policy() {
        return policy;
    }

    /**
     * A tool the session's listing leaves out, and why.
     *
     * @param tool the tool's name
     * @param by   {@code policy rule <id>} or {@code policy pinning}
     * @param rule the rule's id, or {@code pinning}
     */
    public record Hidden(String tool, String by, String rule) {
    }

    /**
     * A tool the server lists other than it first did.
     *
     * @param tool  the tool's name
     * @param parts what differs: title, description, inputSchema, outputSchema, annotations
     */
    public record Change(String tool, List<String> parts) {

        /** The change as messages say it. */
        public String text() {
            return "the server changed " + tool + " since it first listed it (its " + String.join(", ", parts) + ")";
        }
    }

    /**
     * What the policy makes of one page of a {@code tools/list} answer.
     *
     * @param hidden  the tools to leave out of it, in its order
     * @param changes the tools that changed since they were first listed
     * @param end     whether the session is to end (pinning {@code end} and a change)
     */
    public record Listing(List<Hidden> hidden, List<Change> changes, boolean end) {

        /** Whether the answer goes to the host as it came. */
        public boolean untouched() {
            return hidden.isEmpty() && !end;
        }
    }

    /**
     * Takes one page of a {@code tools/list} answer ({@code result.tools}): learns each tool's
     * hints, holds each against its pin, and says which to leave out.
     */
    public Listing listed(JsonNode tools) {
        List<Hidden> hidden = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        if (tools == null || !tools.isArray()) {
            return new Listing(hidden, changes, false);
        }
        Set<String> hiddenNames = new HashSet<>();
        for (JsonNode tool : tools) {
            JsonNode n = tool.get("name");
            if (n == null || !n.isTextual()) {
                continue;
            }
            String name = n.textValue();
            JsonNode a = tool.get("annotations");
            annotations.put(name, a != null && a.isObject() ? a : null);
            if (policy.pinning() != Pinning.OFF) {
                List<String> parts = pins.changes(name, tool);
                if (parts.isEmpty()) {
                    changed.remove(name);
                } else {
                    changed.put(name, parts);
                    changes.add(new Change(name, parts));
                }
            }
            Decision d = decideTool(name);
            if (d.action() == PolicyAction.HIDE && hiddenNames.add(name)) {
                hidden.add(new Hidden(name, d.by(), d.rule()));
            } else if (policy.pinning() == Pinning.DENY && changed.containsKey(name) && hiddenNames.add(name)) {
                hidden.add(new Hidden(name, "policy pinning", "pinning"));
            }
        }
        return new Listing(hidden, changes, policy.pinning() == Pinning.END && !changes.isEmpty());
    }

    /** The verdict of the hide rules on a tool, from its name and hints alone (as a listing has it). */
    private Decision decideTool(String name) {
        JsonNode a = annotations.get(name);
        Rule winner = null;
        for (Rule r : policy.rules()) {
            if (r.action() == PolicyAction.HIDE && r.match().tool(name, a)) {
                winner = r;
                break;
            }
        }
        return winner == null ? allow(List.of())
                : new Decision(PolicyAction.HIDE, "policy rule " + winner.id(), winner.id(), reason(winner),
                        List.of(winner.id()), List.of());
    }

    /**
     * The verdict on a call of {@code tool} with {@code arguments} ({@code {}} when it has
     * none), at {@code nowMs} on the session's clock. Spends nothing: {@link #sent} does, once
     * the call goes to the server.
     */
    public Decision decide(String tool, JsonNode arguments, long nowMs) {
        Strictest v = new Strictest();
        List<String> parts = changed.get(tool);
        if (parts != null && policy.pinning() == Pinning.DENY) {
            v.consider(PolicyAction.DENY, "policy pinning", "pinning",
                    new Change(tool, parts).text() + ", so its calls are refused");
        }
        JsonNode a = annotations.get(tool);
        for (Rule r : policy.rules()) {
            if (r.match().call(tool, a, arguments)) {
                v.consider(r.action(), "policy rule " + r.id(), r.id(), reason(r));
            }
        }
        List<Budget> counts = new ArrayList<>();
        if (!v.action.refuses()) {
            for (Budget b : policy.budgets()) {
                if (!b.match().call(tool, a, arguments)) {
                    continue;
                }
                counts.add(b);
                String over = over(b, tool, nowMs);
                if (over != null) {
                    v.consider(b.action(), "policy budget " + b.id(), b.id(), b.reason() != null ? b.reason() : over);
                }
            }
        }
        return new Decision(v.action, v.by, v.rule, v.reason, v.matched, counts);
    }

    /** The verdict so far: every rule that matched, and the strictest (the first of equals). */
    private static final class Strictest {
        final List<String> matched = new ArrayList<>();
        PolicyAction action = PolicyAction.ALLOW;
        String by;
        String rule;
        String reason;

        void consider(PolicyAction a, String who, String id, String why) {
            matched.add(id);
            if (a.stricterThan(action)) {
                action = a;
                by = who;
                rule = id;
                reason = why;
            }
        }
    }

    private static Decision allow(List<String> matched) {
        return new Decision(PolicyAction.ALLOW, null, null, null, matched, List.of());
    }

    /** Spends the call's budgets: it went to the server at {@code nowMs}. */
    public void sent(String tool, Decision d, long nowMs) {
        for (Budget b : d.counts()) {
            spent.merge(b.id(), 1L, Long::sum);
            spentPerTool.computeIfAbsent(b.id(), k -> new HashMap<>()).merge(tool, 1L, Long::sum);
            Deque<Long> times = lastMinute.computeIfAbsent(b.id(), k -> new ArrayDeque<>());
            times.addLast(nowMs);
        }
    }

    /** How {@code b} would be exceeded by one more call of {@code tool}, or null when it would not. */
    private String over(Budget b, String tool, long nowMs) {
        if (b.perSession() != null && spent.getOrDefault(b.id(), 0L) >= b.perSession()) {
            return "the budget " + b.id() + " allows " + calls(b.perSession()) + " in a session";
        }
        if (b.perTool() != null && spentPerTool.getOrDefault(b.id(), Map.of()).getOrDefault(tool, 0L) >= b.perTool()) {
            return "the budget " + b.id() + " allows " + calls(b.perTool()) + " of each tool in a session";
        }
        if (b.perMinute() != null) {
            Deque<Long> times = lastMinute.get(b.id());
            while (times != null && !times.isEmpty() && times.peekFirst() <= nowMs - MINUTE_MS) {
                times.pollFirst();
            }
            if ((times == null ? 0 : times.size()) >= b.perMinute()) {
                return "the budget " + b.id() + " allows " + calls(b.perMinute()) + " a minute";
            }
        }
        return null;
    }

    private static String calls(long n) {
        return n == 1 ? "1 call" : n + " calls";
    }

    private static String reason(Rule r) {
        if (r.reason() != null) {
            return r.reason();
        }
        return switch (r.action()) {
            case HIDE -> "the tool is not available in this session";
            case ASK -> "it needs a person's approval";
            case DENY -> "the policy does not allow it";
            case LOG, ALLOW -> null;
        };
    }

    /**
     * Why a call of {@code tool} is not read as the policy reads it, or null: its name is not
     * a tool the server listed (or the policy names) but differs from one only in case or
     * white space, which a server matching names as {@code fold} does could run instead.
     */
    public String misreadName(String tool, UnaryOperator<String> fold) {
        if (annotations.containsKey(tool) || namedTools.contains(tool)) {
            return null;
        }
        Set<String> known = new HashSet<>(annotations.keySet());
        known.addAll(namedTools);
        String folded = fold.apply(tool.strip());
        for (String k : known) {
            if (fold.apply(k).equals(folded)) {
                return "the tool name '" + tool + "' differs from " + k + " only in case or white space, and servers"
                        + " that match names so would run " + k;
            }
        }
        return null;
    }

    /**
     * Why the arguments of a call of {@code tool} are not read as the policy reads them, or
     * null: where a condition of a rule or budget about the tool looks up a key, the object
     * there has another key that {@code fold} makes the same (a server matching keys without
     * regard to case would read that one).
     */
    public String misreadKey(String tool, JsonNode arguments, UnaryOperator<String> fold) {
        JsonNode a = annotations.get(tool);
        for (Match m : argumentMatches) {
            if (!m.tool(tool, a)) {
                continue;
            }
            for (Condition c : m.arguments()) {
                for (Map.Entry<JsonNode, String> lookup : c.pointer().lookups(arguments)) {
                    String wanted = lookup.getValue();
                    String folded = fold.apply(wanted);
                    for (Iterator<String> keys = lookup.getKey().fieldNames(); keys.hasNext(); ) {
                        String k = keys.next();
                        if (!k.equals(wanted) && fold.apply(k).equals(folded)) {
                            return "the argument name '" + k + "' differs from '" + wanted + "', which the policy"
                                    + " checks, only in case, and servers that match names so would read it as '"
                                    + wanted + "'";
                        }
                    }
                }
            }
        }
        return null;
    }

    /** What the policy does with the server's own request {@code method}. */
    public PolicyAction serverRequest(String method) {
        return policy.serverRequest(method);
    }
}
