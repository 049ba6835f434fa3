package dev.stretto.trace.episode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.json.JsonRpcId;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Builds a session's {@link Timeline} and {@link Episode} from its log entries, taken one at
 * a time, in log order, with the conversion and turn rules described on {@link Timeline}.
 * {@link Timeline#of} feeds it a whole log; the proxy in active mode feeds it each line as it
 * logs it, and asks for {@linkplain #episode() the episode so far} whenever it must decide,
 * so what it decides on is exactly what {@code Episode.of} gives for the log up to that line.
 *
 * <p>Cost. Each entry costs the parse of its message and the work of the rules; {@link
 * #events()} and {@link #episode()} cost what the events added since the last call cost (the
 * episode's events are kept as they go, and only the newest turn's event, which gains calls,
 * is made again) plus, for {@code episode()}, a copy of the list of events. {@link
 * #timeline()} builds a whole new timeline every time.
 *
 * <p>A builder reads turns by {@link Timeline.TurnRule#FLOW}: the only rule that can be
 * followed line by line, since whether the proxy holds a server's answer back for a flow's
 * lookups shows only when the proxy hands the agent its own copy. {@link Timeline#of(SessionLog,
 * Timeline.TurnRule)} reads a whole log by {@link Timeline.TurnRule#AGENT} with a second
 * builder that is told which answers were held.
 *
 * <p>Not thread-safe: one thread feeds and reads a builder. It keeps parts of the messages
 * it is given (call arguments): a caller must not change a message after passing it in.
 */
public final class TimelineBuilder {

    private final LogHeader header;

    /** Steps in log order, as mutable placeholders until the end. */
    private final List<Object> steps = new ArrayList<>();
    private final List<MTurn> turns = new ArrayList<>();
    /** Calls awaiting their first response, by id key; under the agent's rule, held calls too until handed over. */
    private final Map<String, MCall> pending = new HashMap<>();
    /**
     * The agent's calls the server answered, by id key, until the id is used again: a later
     * response of the proxy's to one of them is the copy it handed the agent after its lookups.
     */
    private final Map<String, MCall> answeredByServer = new HashMap<>();
    /**
     * The calls (by {@link MCall#ordinal}) whose server answer the proxy held back and handed
     * the agent later, each kept open until then: empty under the flow's rule.
     */
    private final Set<Integer> held;
    private int callsSoFar;
    /**
     * Everything known before the current turn's results: the conversation, every call's
     * arguments and the results of other turns. Pieces are separated by newlines so that
     * two neighbours cannot make up a value neither holds.
     */
    private final SearchableText known = new SearchableText();

    /**
     * The episode's events as they stand, one per step; a turn's event is made again from
     * its calls whenever {@code dirty} says calls joined it since.
     */
    private final List<Event> events = new ArrayList<>();
    private final List<Event> eventsView = Collections.unmodifiableList(events);

    private MTurn current;
    private String clientName;
    private long lastMs;
    /** The episode last handed out, until the next entry changes it. */
    private Episode episode;

    /**
     * A builder for the session whose log starts with {@code header}.
     *
     * @param header the log's header
     */
    public TimelineBuilder(LogHeader header) {
        this(header, Set.of());
    }

    /** A builder that keeps the calls {@code held} (by ordinal) open until the proxy hands their answers over. */
    private TimelineBuilder(LogHeader header, Set<Integer> held) {
        this.header = Objects.requireNonNull(header, "header");
        this.held = Set.copyOf(held);
    }

    /** The timeline of a whole log by {@code rule}. */
    static Timeline read(SessionLog log, Timeline.TurnRule rule) {
        TimelineBuilder flow = new TimelineBuilder(log.header());
        log.entries().forEach(flow::add);
        Set<Integer> held = flow.heldCalls();
        if (rule == Timeline.TurnRule.FLOW || held.isEmpty()) {
            return flow.timeline();
        }
        TimelineBuilder agent = new TimelineBuilder(log.header(), held);
        log.entries().forEach(agent::add);
        return agent.timeline();
    }

    /** The ordinals of the agent's calls whose server answer the proxy handed over later, with lookups. */
    private Set<Integer> heldCalls() {
        Set<Integer> out = new HashSet<>();
        for (MTurn t : turns) {
            for (MCall c : t.calls) {
                if (c.deliveredMs != null) {
                    out.add(c.ordinal);
                }
            }
        }
        return out;
    }

    private static final class MTurn {
        final int number;
        final long startMs;
        final List<MCall> calls = new ArrayList<>();
        final SearchableText results = new SearchableText();
        int open;
        /**
         * When the turn's latest answer arrived, or null before any: the 500 ms window
         * counts from the turn's last response, and a cancellation is none.
         */
        Long lastAnswerMs;
        /** No user or assistant message since the turn began. */
        boolean onlyResultsSince = true;
        /** Where the turn's assistant event is in the events. */
        final int eventIndex;
        /** Calls joined since that event was last made. */
        boolean dirty = true;
        /** The calls as the episode holds them, in order. */
        final List<ToolCall> toolCalls = new ArrayList<>();

        MTurn(int number, long startMs, int eventIndex) {
            this.number = number;
            this.startMs = startMs;
            this.eventIndex = eventIndex;
        }
    }

    private static final class MCall {
        /** 0 for the log's first call, then counting up: the same call in both readings of a log. */
        final int ordinal;
        final String id;
        final String name;
        final JsonNode arguments;
        final Source from;
        final long sentMs;
        final MTurn turn;
        boolean open = true;
        Timeline.Result result;
        Long cancelledMs;
        boolean replaced;
        /** When the proxy handed the agent its copy of the server's answer, or null. */
        Long deliveredMs;

        MCall(int ordinal, ToolCall call, Source from, long sentMs, MTurn turn) {
            this.ordinal = ordinal;
            this.id = call.id();
            this.name = call.name();
            this.arguments = call.arguments();
            this.from = from;
            this.sentMs = sentMs;
            this.turn = turn;
        }
    }

    private record MSaid(long tMs, Timeline.Role role, String text) {
    }

    private record MTurnStart(long tMs, MTurn turn) {
    }

    private record MResult(long tMs, MCall call) {
    }

    /**
     * Takes the log's next entry. Entries that are not messages, and messages that play no
     * part in an episode, only move the timeline's end ({@link Timeline#endMs()}).
     *
     * @param entry the entry
     */
    public void add(LogEntry entry) {
        lastMs = entry.tMs();
        if (entry.payload() instanceof Payload.Message m) {
            Optional<JsonNode> parsed = m.tree();
            parsed.ifPresent(node -> dispatch(node, entry.from(), entry.tMs()));
        }
    }

    /**
     * Takes the log's next entry when its message is already parsed: the same as {@link
     * #add(LogEntry)} for an entry holding {@code message}'s text.
     *
     * @param tMs     the entry's {@code t_ms}
     * @param from    who sent the line
     * @param message the line's JSON value (a message, or a batch of them)
     */
    public void add(long tMs, Source from, JsonNode message) {
        lastMs = tMs;
        dispatch(Objects.requireNonNull(message, "message"), from, tMs);
    }

    private void dispatch(JsonNode node, Source from, long t) {
        episode = null;
        if (from == Source.CONTEXT) {
            context(node, t);
        } else if (node.isArray()) {
            for (JsonNode one : node) {
                rpc(one, from, t);
            }
        } else {
            rpc(node, from, t);
        }
    }

    /**
     * The episode's events so far, in order: a read-only view that later entries change, so
     * read it before the next {@code add}.
     *
     * @return the events
     */
    public List<Event> events() {
        if (current != null && current.dirty) {
            refresh(current);
        }
        return eventsView;
    }

    /** {@return the episode of the entries so far, as {@link Timeline#episode()} would give it} */
    public Episode episode() {
        if (episode == null) {
            episode = new Episode(header.session(), "", 0, domain(), agentModel(), 0.0, events());
        }
        return episode;
    }

    /** {@return the timeline of the entries so far: a new one at every call} */
    public Timeline timeline() {
        return freeze();
    }

    private void refresh(MTurn t) {
        events.set(t.eventIndex, new Event.Assistant(null, t.toolCalls, null));
        t.dirty = false;
    }

    private void context(JsonNode msg, long t) {
        if (!msg.isObject()) {
            return;
        }
        JsonNode role = msg.get("role");
        JsonNode content = msg.get("content");
        String text = content != null && content.isTextual() ? content.textValue() : "";
        if (role == null || !role.isTextual()) {
            return;
        }
        switch (role.textValue()) {
            case "user" -> said(Timeline.Role.USER, text, t);
            case "assistant" -> {
                if (!text.isEmpty()) {
                    said(Timeline.Role.ASSISTANT, text, t);
                }
            }
            default -> {
                // Other roles (system, tool) are not part of the episode.
            }
        }
    }

    private void said(Timeline.Role role, String text, long t) {
        steps.add(new MSaid(t, role, text));
        events.add(role == Timeline.Role.USER ? new Event.User(text) : new Event.Assistant(text, List.of(), null));
        known.append(text).append('\n');
        if (current != null) {
            current.onlyResultsSince = false;
        }
    }

    private void rpc(JsonNode msg, Source from, long t) {
        if (!msg.isObject()) {
            return;
        }
        JsonNode method = msg.get("method");
        JsonNode id = msg.get("id");
        boolean hasId = id != null && !id.isNull();
        boolean fromAgentSide = from == Source.CLIENT || from == Source.PROXY;
        if (method != null && method.isTextual()) {
            JsonNode params = msg.get("params");
            if (hasId) {
                if (from == Source.CLIENT && "initialize".equals(method.textValue()) && clientName == null) {
                    JsonNode name = params == null ? null : params.path("clientInfo").get("name");
                    if (name != null && name.isTextual()) {
                        clientName = name.textValue();
                    }
                }
                if (fromAgentSide && "tools/call".equals(method.textValue())) {
                    call(msg, id, from, t);
                }
            } else if (fromAgentSide && "notifications/cancelled".equals(method.textValue()) && params != null) {
                JsonNode requestId = params.get("requestId");
                if (requestId != null && !requestId.isNull()) {
                    cancel(requestId, t);
                }
            }
        } else if (method == null && hasId && (msg.has("result") || msg.has("error"))
                && (from == Source.SERVER || from == Source.PROXY)) {
            response(id, msg, from, t);
        }
    }

    private void call(JsonNode msg, JsonNode id, Source from, long t) {
        ToolCall call = ToolCall.ofRequest(msg).orElseThrow();
        JsonNode args = call.arguments();
        if (!joinsCurrentTurn(from, args, t)) {
            startTurn(t);
        }
        MCall c = new MCall(callsSoFar++, call, from, t, current);
        current.calls.add(c);
        current.toolCalls.add(call);
        current.open++;
        current.dirty = true;
        MCall earlier = pending.put(JsonRpcId.key(id), c);
        answeredByServer.remove(JsonRpcId.key(id));
        if (earlier != null) {
            earlier.replaced = true;
            release(earlier);
        }
        for (String v : argumentValues(args, new ArrayList<>())) {
            known.append(v).append('\n');
        }
    }

    private boolean joinsCurrentTurn(Source from, JsonNode args, long t) {
        if (current == null) {
            return false;
        }
        if (current.open > 0) {
            return true;
        }
        return from == Source.CLIENT
                && current.onlyResultsSince
                && current.lastAnswerMs != null
                && t - current.lastAnswerMs <= Timeline.SAME_TURN_MS
                && !passesValueFirstSeenInTurn(args);
    }

    private boolean passesValueFirstSeenInTurn(JsonNode args) {
        for (String v : argumentValues(args, new ArrayList<>())) {
            if (current.results.contains(v) && !known.contains(v)) {
                return true;
            }
        }
        return false;
    }

    /** Strings and numbers of at least two characters anywhere in the arguments. */
    private static List<String> argumentValues(JsonNode node, List<String> out) {
        if (node.isContainerNode()) {
            for (JsonNode child : node) {
                argumentValues(child, out);
            }
        } else if (node.isTextual() || node.isNumber()) {
            String s = node.isTextual() ? node.textValue() : CanonicalJson.write(node);
            // Three chars are two code points at least: only a pair of two needs counting.
            if (s.length() >= 3 || s.codePointCount(0, s.length()) >= 2) {
                out.add(s);
            }
        }
        return out;
    }

    private void startTurn(long t) {
        if (current != null) {
            known.append(current.results.text());
            // Only the newest turn gains calls: the one before is final from now on.
            if (current.dirty) {
                refresh(current);
            }
        }
        current = new MTurn(turns.size() + 1, t, events.size());
        turns.add(current);
        steps.add(new MTurnStart(t, current));
        events.add(null);
    }

    private void release(MCall c) {
        if (c.open) {
            c.open = false;
            c.turn.open--;
        }
    }

    private void cancel(JsonNode requestId, long t) {
        MCall c = pending.get(JsonRpcId.key(requestId));
        if (c != null && c.open) {
            c.cancelledMs = t;
            release(c);
        }
    }

    private void response(JsonNode id, JsonNode msg, Source from, long t) {
        String key = JsonRpcId.key(id);
        MCall c = pending.get(key);
        if (c == null) {
            // Not a call, or a later answer to one already answered: the proxy's copy of a
            // server's answer it held back for a flow's lookups is its hand-over to the agent.
            MCall answered = from == Source.PROXY ? answeredByServer.remove(key) : null;
            if (answered != null) {
                answered.deliveredMs = t;
            }
            return;
        }
        if (c.result != null) {
            // A held call: the proxy's copy hands it over and ends its wait; nothing else counts.
            if (from == Source.PROXY) {
                pending.remove(key);
                c.deliveredMs = t;
                c.turn.lastAnswerMs = t;
                release(c);
            }
            return;
        }
        boolean holds = from == Source.SERVER && held.contains(c.ordinal);
        if (!holds) {
            pending.remove(key);
        }
        if (from == Source.SERVER && c.from == Source.CLIENT) {
            answeredByServer.put(key, c);
        }
        boolean error;
        String content;
        JsonNode err = msg.get("error");
        if (err != null && !err.isNull()) {
            error = true;
            JsonNode message = err.get("message");
            content = message != null && message.isTextual() ? message.textValue() : CanonicalJson.write(err);
        } else {
            JsonNode result = msg.get("result");
            JsonNode isError = result == null ? null : result.get("isError");
            error = isError != null && isError.isBoolean() && isError.booleanValue();
            content = resultText(result);
        }
        c.result = new Timeline.Result(t, from, error, content);
        if (!holds) {
            c.turn.lastAnswerMs = t;
            release(c);
        }
        steps.add(new MResult(t, c));
        events.add(new Event.ToolResult(c.id, c.name, error, content));
        if (c.turn == current) {
            current.results.append(content).append('\n');
        } else {
            known.append(content).append('\n');
        }
    }

    private static String resultText(JsonNode result) {
        if (result == null) {
            return "null";
        }
        JsonNode items = result.get("content");
        List<String> texts = new ArrayList<>();
        if (items != null && items.isArray()) {
            for (JsonNode item : items) {
                JsonNode type = item.get("type");
                JsonNode text = item.get("text");
                if (type != null && "text".equals(type.textValue()) && text != null && text.isTextual()) {
                    texts.add(text.textValue());
                }
            }
        }
        if (!texts.isEmpty()) {
            return String.join("\n", texts);
        }
        JsonNode structured = result.get("structuredContent");
        if (structured != null && !structured.isNull()) {
            return CanonicalJson.write(structured);
        }
        return CanonicalJson.write(result);
    }

    private Timeline freeze() {
        Map<MCall, Timeline.Call> calls = new IdentityHashMap<>();
        List<Timeline.Turn> frozenTurns = new ArrayList<>(turns.size());
        Map<MTurn, Timeline.Turn> byTurn = new IdentityHashMap<>();
        for (MTurn t : turns) {
            List<Timeline.Call> cs = new ArrayList<>(t.calls.size());
            for (MCall c : t.calls) {
                Timeline.Call fc = new Timeline.Call(c.id, c.name, c.arguments, c.from, c.sentMs, t.number,
                        c.result, c.deliveredMs, c.cancelledMs, c.replaced);
                calls.put(c, fc);
                cs.add(fc);
            }
            Timeline.Turn ft = new Timeline.Turn(t.number, t.startMs, cs);
            frozenTurns.add(ft);
            byTurn.put(t, ft);
        }
        List<Timeline.Step> frozenSteps = new ArrayList<>(steps.size());
        for (Object s : steps) {
            frozenSteps.add(switch (s) {
                case MSaid m -> new Timeline.Said(m.tMs(), m.role(), m.text());
                case MTurnStart m -> new Timeline.TurnStarted(m.tMs(), byTurn.get(m.turn()));
                case MResult m -> new Timeline.ResultArrived(m.tMs(), calls.get(m.call()));
                default -> throw new IllegalStateException("unknown step " + s);
            });
        }
        return new Timeline(header, domain(), agentModel(), clientName, frozenSteps, frozenTurns, lastMs);
    }

    private String domain() {
        return header.domain() != null ? header.domain() : "mcp";
    }

    private String agentModel() {
        return header.agentModel() != null ? header.agentModel() : clientName != null ? clientName : "unknown";
    }
}
