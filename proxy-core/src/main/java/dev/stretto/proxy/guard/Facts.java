package dev.stretto.proxy.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a session has shown that the policy rules need, read from its episode's events: what
 * the customer said, who was authenticated, and the users, products, orders, reservations and
 * flight statuses its successful tool results returned, and the writes that succeeded. The
 * proxy's own calls are calls of the episode too, so their results count.
 *
 * <p>From the events, in order: each user message, lowercased, is a customer text. Each
 * successful result is parsed as JSON (else taken as its trimmed text). A string from {@code
 * find_user_id_by_email} or {@code find_user_id_by_name_zip} is an authenticated user. {@code
 * get_user_details} fills {@link #users()}, {@code get_product_details} {@link #products()}
 * (keyed by the call's {@code user_id} or {@code product_id}, else the result's), {@code
 * get_flight_status} a flight's status by the call's {@code flight_number} and {@code date}.
 * Any object result with a string {@code order_id} is that order as last seen (writes that
 * return the order included), and likewise {@code reservation_id}. A successful call of a tool
 * whose name does not start with {@code get_}, {@code find_}, {@code list_} or {@code search_}
 * and is not {@code calculate} is a past write.
 *
 * <p>Kept as the session goes: {@link #update(List)} reads only the events added since the
 * last update (and calls that joined the newest turn since), so a check costs what happened
 * since the previous one. Not thread-safe.
 */
public final class Facts {

    /**
     * A write that succeeded.
     *
     * @param tool      the tool called
     * @param arguments its arguments
     */
    public record Write(String tool, JsonNode arguments) {
    }

    private final List<String> customerTexts = new ArrayList<>();
    private final Set<String> authenticated = new LinkedHashSet<>();
    private final Map<String, JsonNode> users = new LinkedHashMap<>();
    private final Map<String, JsonNode> products = new LinkedHashMap<>();
    private final Map<String, JsonNode> orders = new LinkedHashMap<>();
    private final Map<String, JsonNode> reservations = new LinkedHashMap<>();
    private final Map<String, String> flightStatuses = new HashMap<>();
    private final List<Write> writes = new ArrayList<>();

    /** The calls seen so far by id, for the arguments of the results that answer them. */
    private final Map<String, ToolCall> calls = new HashMap<>();
    /** How many events were read. */
    private int next;
    /** The newest turn's event, which may gain calls after it was read, and how many it had. */
    private int newestTurn = -1;
    private int newestTurnCalls;

    /** The facts of a whole list of events. */
    public static Facts of(List<Event> events) {
        return new Facts().update(events);
    }

    /**
     * Reads the events added since the last update. {@code events} must be the same session's
     * events, grown since (as {@code TimelineBuilder.events()} gives them).
     *
     * @return this
     */
    public Facts update(List<Event> events) {
        if (newestTurn >= 0 && newestTurn < next && newestTurn < events.size()
                && events.get(newestTurn) instanceof Event.Assistant a) {
            register(a);
        }
        for (; next < events.size(); next++) {
            Event e = events.get(next);
            if (e instanceof Event.User u) {
                customerTexts.add(u.text().toLowerCase(Locale.ROOT));
            } else if (e instanceof Event.Assistant a && !a.calls().isEmpty()) {
                newestTurn = next;
                newestTurnCalls = 0;
                register(a);
            } else if (e instanceof Event.ToolResult r && !r.error()) {
                result(r);
            }
        }
        return this;
    }

    private void register(Event.Assistant turn) {
        List<ToolCall> cs = turn.calls();
        for (int i = newestTurnCalls; i < cs.size(); i++) {
            calls.put(cs.get(i).id(), cs.get(i));
        }
        newestTurnCalls = cs.size();
    }

    private void result(Event.ToolResult r) {
        ToolCall call = calls.get(r.callId());
        JsonNode args = call != null ? call.arguments() : JsonNodeFactory.instance.objectNode();
        JsonNode value = parse(r.content());
        String tool = r.name();
        switch (tool) {
            case "find_user_id_by_email", "find_user_id_by_name_zip" -> {
                if (value.isTextual()) {
                    String user = trimQuotes(value.textValue());
                    if (!user.isEmpty()) {
                        authenticated.add(user);
                    }
                }
            }
            case "get_user_details" -> keyed(users, args, value, "user_id");
            case "get_product_details" -> keyed(products, args, value, "product_id");
            case "get_flight_status" -> {
                String flight = text(args, "flight_number");
                String date = text(args, "date");
                if (value.isTextual() && flight != null && date != null) {
                    flightStatuses.put(flightKey(flight, date), value.textValue());
                }
            }
            default -> {
            }
        }
        if (value.isObject()) {
            String order = text(value, "order_id");
            if (order != null) {
                orders.put(order, value);
            }
            String reservation = text(value, "reservation_id");
            if (reservation != null) {
                reservations.put(reservation, value);
            }
        }
        if (isWrite(tool)) {
            writes.add(new Write(tool, args));
        }
    }

    private static void keyed(Map<String, JsonNode> into, JsonNode args, JsonNode value, String key) {
        if (!value.isObject()) {
            return;
        }
        String id = text(args, key);
        if (id == null) {
            id = text(value, key);
        }
        if (id != null) {
            into.put(id, value);
        }
    }

    /** A tool that changes something: not a lookup by its name, and not {@code calculate}. */
    static boolean isWrite(String tool) {
        return !(tool.startsWith("get_") || tool.startsWith("find_") || tool.startsWith("list_")
                || tool.startsWith("search_") || tool.equals("calculate"));
    }

    private static JsonNode parse(String content) {
        String trimmed = content.strip();
        try {
            return CanonicalJson.parse(trimmed);
        } catch (IllegalArgumentException notJson) {
            return TextNode.valueOf(trimmed);
        }
    }

    private static String trimQuotes(String s) {
        String t = s.strip();
        while (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1).strip();
        }
        return t;
    }

    private static String flightKey(String flight, String date) {
        return flight + '\n' + date;
    }

    /** {@code node.field} when it is a string, else null. */
    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /** What the customer said, each message lowercased, in order. */
    public List<String> customerTexts() {
        return Collections.unmodifiableList(customerTexts);
    }

    /** The customer's last message, lowercased, if the customer said anything. */
    public Optional<String> lastCustomerText() {
        return customerTexts.isEmpty() ? Optional.empty() : Optional.of(customerTexts.getLast());
    }

    /** The users authenticated by email or by name and zip code, in the order they were found. */
    public Set<String> authenticatedUsers() {
        return Collections.unmodifiableSet(authenticated);
    }

    /** User details by user id. */
    public Map<String, JsonNode> users() {
        return Collections.unmodifiableMap(users);
    }

    /** Product details by product id. */
    public Map<String, JsonNode> products() {
        return Collections.unmodifiableMap(products);
    }

    /** Orders by id, as last seen. */
    public Map<String, JsonNode> orders() {
        return Collections.unmodifiableMap(orders);
    }

    /** Reservations by id, as last seen. */
    public Map<String, JsonNode> reservations() {
        return Collections.unmodifiableMap(reservations);
    }

    /** What {@code get_flight_status} said of a flight on a date, if it was asked. */
    public Optional<String> flightStatus(String flightNumber, String date) {
        return Optional.ofNullable(flightStatuses.get(flightKey(flightNumber, date)));
    }

    /** The writes that succeeded, in order. */
    public List<Write> pastWrites() {
        return Collections.unmodifiableList(writes);
    }
}
