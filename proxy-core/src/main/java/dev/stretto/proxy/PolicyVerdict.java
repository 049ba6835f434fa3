package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a policy did, once: with a call (refused, held for a person, logged), with a listing (a
 * tool left out), with a tool the server changed (pinning), with a request of the server's.
 * The proxy logs each as a {@code proxy} entry, a JSON-RPC notification of the method {@link
 * #METHOD} that is never sent to either side, whose {@code params} are {@link #toJson()};
 * {@code stretto show} prints them, and {@link PolicyReplay} gives the same records for a
 * recorded session replayed through a policy. An allow decided by no rule is not logged.
 *
 * @param tMs      when, in milliseconds after the session started
 * @param kind     what the verdict is about
 * @param name     the tool, or for {@link Kind#SERVER_REQUEST} the request's method
 * @param id       the JSON-RPC id of the call or request as an episode spells it ({@code "3"},
 *                 {@code "stretto-1"}), or null (a listing, a change)
 * @param arguments the call's arguments, or null when it is not a call
 * @param action   what the policy did
 * @param rule     the id of the rule or budget that decided, {@code pinning} for pinning and
 *                 {@code server_requests} for a request of the server's; null when none did
 * @param matched  the ids of every rule and budget that matched, in the policy's order
 * @param reason   why, as the agent or the server was told (bare), or null
 * @param approval for {@link PolicyAction#ASK}: the id a person approves or denies the call by
 *                 ({@code stretto approve ID}), else null
 * @param answer   for {@link PolicyAction#ASK}: where the approval stands, else null
 */
public record PolicyVerdict(long tMs, Kind kind, String name, String id, JsonNode arguments, PolicyAction action,
                            String rule, List<String> matched, String reason, String approval, Answer answer) {

    /** The method of the log's verdict entries. */
    public static final String METHOD = "stretto/policy";

    /** What a verdict is about. */
    public enum Kind {
        /** A tool call of the agent's (or one a {@code stretto_commit} made). */
        CALL,
        /** A tool left out of a {@code tools/list} answer. */
        LISTING,
        /** A tool the server lists other than it first did. */
        PINNING,
        /** A request of the server's own ({@code sampling/createMessage}, ...). */
        SERVER_REQUEST;

        /**
         * The kind's name in the log.
         *
         * @return {@code call}, {@code listing}, {@code pinning} or {@code server_request}
         */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where a call held for a person's approval stands. */
    public enum Answer {
        /** Waiting for a person. */
        WAITING,
        /** A person approved it: it went to the server. */
        APPROVED,
        /** A person denied it. */
        DENIED,
        /** No one answered within the policy's timeout: denied. */
        TIMED_OUT,
        /** The host cancelled the call while it waited. */
        CANCELLED,
        /** The session ended while it waited. */
        SESSION_ENDED;

        /**
         * The answer's name in the log.
         *
         * @return {@code waiting}, {@code approved}, {@code denied}, {@code timed_out}, {@code
         *         cancelled} or {@code session_ended}
         */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when {@code kind}, {@code name}, {@code action} or {@code
     *                              matched} is null
     */
    public PolicyVerdict {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(action, "action");
        matched = List.copyOf(matched);
    }

    /**
     * The verdict as the log's entry holds it, in {@code params}: {@code kind}, {@code name},
     * {@code action}, and those of {@code id}, {@code arguments}, {@code rule}, {@code matched},
     * {@code reason}, {@code approval} and {@code answer} it has. ({@code tMs} is the entry's
     * own {@code t_ms}.)
     *
     * @return a new object
     */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("kind", kind.wireName());
        o.put("name", name);
        if (id != null) {
            o.put("id", id);
        }
        if (arguments != null) {
            o.set("arguments", arguments);
        }
        o.put("action", action.wireName());
        if (rule != null) {
            o.put("rule", rule);
        }
        if (!matched.isEmpty()) {
            ArrayNode m = o.putArray("matched");
            matched.forEach(m::add);
        }
        if (reason != null) {
            o.put("reason", reason);
        }
        if (approval != null) {
            o.put("approval", approval);
        }
        if (answer != null) {
            o.put("answer", answer.wireName());
        }
        return o;
    }

    /**
     * The verdict a log entry holds, if it is one: a {@code proxy} entry whose message is a
     * notification of {@link #METHOD} with params as {@link #toJson()} writes them.
     *
     * @param entry a log entry
     * @return the verdict, or empty for any other entry (and for a verdict that cannot be read)
     */
    public static Optional<PolicyVerdict> of(LogEntry entry) {
        if (entry.from() != Source.PROXY || !(entry.payload() instanceof Payload.Message m)
                || !m.json().contains(METHOD)) {
            return Optional.empty();
        }
        JsonNode msg = m.tree().orElse(null);
        if (msg == null || !METHOD.equals(msg.path("method").asText(null)) || !msg.path("params").isObject()) {
            return Optional.empty();
        }
        JsonNode p = msg.get("params");
        Kind kind = named(Kind.values(), p.path("kind").asText(""), Kind::wireName);
        PolicyAction action = PolicyAction.named(p.path("action").asText("")).orElse(null);
        String name = p.path("name").isTextual() ? p.get("name").textValue() : null;
        if (kind == null || action == null || name == null) {
            return Optional.empty();
        }
        List<String> matched = new ArrayList<>();
        p.path("matched").forEach(v -> matched.add(v.asText()));
        return Optional.of(new PolicyVerdict(entry.tMs(), kind, name, text(p, "id"), p.get("arguments"), action,
                text(p, "rule"), matched, text(p, "reason"), text(p, "approval"),
                named(Answer.values(), p.path("answer").asText(""), Answer::wireName)));
    }

    /**
     * Every verdict a session log holds, in its order.
     *
     * @param log the log
     * @return the verdicts; none for a session without a policy
     */
    public static List<PolicyVerdict> in(SessionLog log) {
        List<PolicyVerdict> out = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            of(e).ifPresent(out::add);
        }
        return out;
    }

    private static String text(JsonNode p, String key) {
        JsonNode v = p.get(key);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    private static <E> E named(E[] values, String name, java.util.function.Function<E, String> wire) {
        for (E e : values) {
            if (wire.apply(e).equals(name)) {
                return e;
            }
        }
        return null;
    }
}
