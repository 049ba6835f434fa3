package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.trace.episode.ToolCall;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads a line from the host as the servers behind the proxy may read it, to find every
 * {@code tools/call} some server could run, when policy checks must see each one. A call is
 * checked only when every server reads it as the one call the checks see; anything a server
 * could run as a call that is not read alike everywhere is refused.
 *
 * <p>What counts as read alike: one JSON object, strict JSON, on a line with no carriage
 * return inside (servers that read lines as Python, Java and Node do end a line there); no
 * object in it with two keys that are equal once folded as Go folds them (so no duplicated
 * key, whatever a server does with one, and no key that a case-insensitive server could take
 * for another); {@code jsonrpc}, {@code id}, {@code method}, {@code params}, and in {@code
 * params} {@code name}, {@code arguments} and {@code _meta} spelled exactly; an id that is a
 * string, or an integer servers read as the same number (magnitude below 2^53: JavaScript's
 * numbers are exact up to there); params an object, the name a string, the arguments an
 * object or absent; and for a tool a check applies to, argument names in lower case, as a
 * case-insensitive server would read them. A batch holding such calls gets each read so.
 *
 * <p>Cost: a line is looked at closely only when its method is {@code tools/call} or when
 * {@link AnySpelling} finds {@code tools/call} in it in some spelling; every other line is left
 * to the actor's one look.
 */
final class CallReader {

    /** JSON-RPC's code for text that is not JSON. */
    static final int PARSE_ERROR = -32700;
    /** JSON-RPC's code for a message that is not a valid request. */
    static final int INVALID_REQUEST = -32600;
    /** JSON-RPC's code for a request whose params are not valid. */
    static final int INVALID_PARAMS = -32602;

    private static final long MAX_SAFE_ID = (1L << 53) - 1;
    private static final Set<String> ENVELOPE = Set.of("jsonrpc", "id", "method", "params");
    private static final Set<String> PARAMS = Set.of("name", "arguments", "_meta");

    /** What a line is, as far as calls go. */
    sealed interface Reading {
    }

    /** Nothing in the line that any server could run as a tools/call. */
    record NotACall() implements Reading {
    }

    /**
     * One tools/call that every server reads as the call the checks see.
     *
     * @param message the line as a tree (as the session log reads it)
     * @param call    the call
     * @param id      its id
     */
    record Call(JsonNode message, ToolCall call, JsonNode id) implements Reading {
    }

    /**
     * Something a server could run as a tools/call that the checks cannot see as every server
     * would: it is refused, and never reaches the server.
     *
     * @param refusal the error the host gets
     */
    record Refused(Refusal refusal) implements Reading {
    }

    /**
     * A batch holding at least one call, or something a server could run as one.
     *
     * @param elements each element of the batch, in order
     */
    record Batch(List<Element> elements) implements Reading {
    }

    /**
     * One element of a batch: a {@link Call}, a {@link Refused}, or anything else ({@link
     * NotACall}).
     *
     * @param message the element
     * @param reading what it is
     */
    record Element(JsonNode message, Reading reading) {
    }

    /**
     * Why a call is refused, and the JSON-RPC error the host gets for it.
     *
     * @param code   the error's code
     * @param reason why, bare (stderr says it)
     * @param id     the id the error answers: the request's, JSON null when it has no id the
     *               host can be answered by, or Java null for none at all (a notification,
     *               which is never answered)
     */
    record Refusal(int code, String reason, JsonNode id) {

        /** The error's message: what the host is told. */
        String message() {
            return "Refused by the policy check, so nothing was run and nothing changed: " + reason + ".";
        }
    }

    private CallReader() {
    }

    /**
     * Reads one line of the host's.
     *
     * @param line    the line, without its terminator
     * @param peek    the actor's one look at it
     * @param checked whether a check applies to calls of a tool
     */
    static Reading read(byte[] line, JsonRpcPeek peek, Predicate<String> checked) {
        boolean peekedCall = peek.kind() == JsonRpcPeek.Kind.REQUEST && "tools/call".equals(peek.method());
        if (!peekedCall && !AnySpelling.mentions(line, "tools/call")) {
            return new NotACall();
        }
        // From here on, some server could take the line for a tools/call.
        if (peek.kind() == JsonRpcPeek.Kind.NOT_JSON) {
            return refusedLine(PARSE_ERROR, "the line mentions tools/call but is not JSON the proxy can read as every"
                    + " server would");
        }
        if (carriageReturnInside(line)) {
            return refusedLine(INVALID_REQUEST, "the line mentions tools/call and holds a carriage return, where some"
                    + " servers end a line");
        }
        List<KeyScan.Message> scan;
        try {
            scan = KeyScan.of(line);
        } catch (IOException e) {
            return refusedLine(PARSE_ERROR, "the line mentions tools/call but is not JSON the proxy can read");
        }
        JsonNode tree = ProxyLines.parse(line);
        if (tree == null || scan.isEmpty()) {
            return refusedLine(PARSE_ERROR, "the line mentions tools/call but is not JSON the proxy can read");
        }
        if (tree.isObject()) {
            return message(tree, scan.getFirst(), checked);
        }
        if (!tree.isArray() || tree.size() != scan.size()) {
            return refusedLine(INVALID_REQUEST, "the line mentions tools/call but is not a JSON-RPC message");
        }
        List<Element> elements = new ArrayList<>();
        boolean anyCall = false;
        for (int i = 0; i < tree.size(); i++) {
            Reading r = message(tree.get(i), scan.get(i), checked);
            anyCall |= !(r instanceof NotACall);
            elements.add(new Element(tree.get(i), r));
        }
        return anyCall ? new Batch(elements) : new NotACall();
    }

    private static Refused refusedLine(int code, String reason) {
        return new Refused(new Refusal(code, reason, NullNode.instance));
    }

    /** One message: the line's object, or an element of its batch. */
    private static Reading message(JsonNode m, KeyScan.Message scan, Predicate<String> checked) {
        if (!scan.possibleCall()) {
            return new NotACall();
        }
        if (!scan.object()) {
            return refusedLine(INVALID_REQUEST, "tools/call appears in something that is not a JSON-RPC message");
        }
        if (scan.twinKeys()) {
            return refusedLine(INVALID_REQUEST, "a tools/call has a key twice, or two keys that differ only in case,"
                    + " which servers read differently");
        }
        String misspelt = misspelt(m, ENVELOPE);
        if (misspelt != null) {
            return refusedLine(INVALID_REQUEST, "a tools/call has the key '" + misspelt + "', which some servers take"
                    + " for '" + exact(misspelt, ENVELOPE) + "'");
        }
        JsonNode id = m.get("id");
        if (id == null) {
            return new Refused(new Refusal(INVALID_REQUEST, "a tools/call without an id (a notification) cannot be"
                    + " answered", null));
        }
        if (!(id.isTextual() || id.isIntegralNumber() && id.bigIntegerValue().abs().compareTo(
                BigInteger.valueOf(MAX_SAFE_ID)) <= 0)) {
            return refusedLine(INVALID_REQUEST, "a tools/call's id must be a string or an integer of magnitude below"
                    + " 2^53, not " + dev.stretto.trace.json.CanonicalJson.write(id));
        }
        JsonNode params = m.get("params");
        if (params != null && !params.isNull()) {
            if (!params.isObject()) {
                return invalidParams(id, "its params must be an object");
            }
            String p = misspelt(params, PARAMS);
            if (p != null) {
                return invalidParams(id, "its params have the key '" + p + "', which some servers take for '"
                        + exact(p, PARAMS) + "'");
            }
            JsonNode name = params.get("name");
            if (name != null && !name.isTextual()) {
                return invalidParams(id, "its name must be a string");
            }
            JsonNode args = params.get("arguments");
            if (args != null && !args.isNull() && !args.isObject()) {
                return invalidParams(id, "its arguments must be an object");
            }
        }
        ToolCall call = ToolCall.ofRequest(m).orElseThrow();
        String name = call.name();
        if (!checked.test(name)) {
            String plain = name.strip().toLowerCase(java.util.Locale.ROOT);
            if (!plain.equals(name) && checked.test(plain)) {
                return invalidParams(id, "the tool '" + name + "' differs from " + plain + " only in case or white space");
            }
            return new Call(m, call, id);
        }
        String key = notLowerCase(call.arguments());
        if (key != null) {
            return invalidParams(id, "the argument name '" + key + "' is not in lower case, and servers that match"
                    + " names case-insensitively would read it as another");
        }
        return new Call(m, call, id);
    }

    private static Refused invalidParams(JsonNode id, String reason) {
        return new Refused(new Refusal(INVALID_PARAMS, "a tools/call was not as the policy check reads it: " + reason, id));
    }

    /** A key of {@code object} that folds like one of {@code names} without being it, or null. */
    private static String misspelt(JsonNode object, Set<String> names) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            String k = e.getKey();
            if (!names.contains(k) && exact(k, names) != null) {
                return k;
            }
        }
        return null;
    }

    /** The one of {@code names} that {@code key} folds like, or null. */
    private static String exact(String key, Set<String> names) {
        String folded = KeyScan.fold(key);
        for (String n : names) {
            if (KeyScan.fold(n).equals(folded)) {
                return n;
            }
        }
        return null;
    }

    /** A key anywhere in {@code value} with a letter a server folding case would read as another, or null. */
    private static String notLowerCase(JsonNode value) {
        List<JsonNode> todo = new ArrayList<>();
        todo.add(value);
        while (!todo.isEmpty()) {
            JsonNode v = todo.removeLast();
            if (v.isObject()) {
                for (Map.Entry<String, JsonNode> e : v.properties()) {
                    if (!isLowerCase(e.getKey())) {
                        return e.getKey();
                    }
                    todo.add(e.getValue());
                }
            } else if (v.isArray()) {
                v.forEach(todo::add);
            }
        }
        return null;
    }

    /** Whether folding and lower-casing each character leaves it as it is. */
    private static boolean isLowerCase(String key) {
        return key.codePoints().allMatch(c -> Character.toLowerCase(Character.toUpperCase(Character.toLowerCase(c))) == c);
    }

    /** A carriage return with something other than white space after it. */
    private static boolean carriageReturnInside(byte[] line) {
        boolean cr = false;
        for (byte b : line) {
            if (b == '\r') {
                cr = true;
            } else if (cr && b != ' ' && b != '\t' && b != '\n') {
                return true;
            }
        }
        return false;
    }
}
