package dev.stretto.proxy.guard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/** Reading a call's arguments and the records the facts hold, for the rules. */
final class CallArgs {

    private CallArgs() {
    }

    /** The string argument {@code name}, or null when absent or not a string. */
    static String text(ToolCall call, String name) {
        return Facts.text(call.arguments(), name);
    }

    /** The argument {@code name} when it is an array, else null. */
    static JsonNode array(ToolCall call, String name) {
        JsonNode v = call.arguments().get(name);
        return v != null && v.isArray() ? v : null;
    }

    /** The argument {@code name} when it is a number, else null. */
    static Long number(ToolCall call, String name) {
        JsonNode v = call.arguments().get(name);
        return v != null && v.isIntegralNumber() ? v.longValue() : null;
    }

    /** The elements of an array as text: strings as they are, anything else as JSON. */
    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : array) {
            out.add(e.isTextual() ? e.textValue() : CanonicalJson.write(e));
        }
        return out;
    }

    /**
     * Whether the call's {@code user_id} is the session's user {@code me}: unknown when the
     * call names no user or the session has none ({@code noUser} says why), else a pass or the
     * failure "the call is for X, not {@code whose}".
     */
    static Verdict forTheUser(ToolCall call, String me, String noUser, String whose) {
        String user = text(call, "user_id");
        if (user == null) {
            return Verdict.unknown("the call names no user");
        }
        if (me == null) {
            return Verdict.unknown(noUser);
        }
        return user.equals(me) ? Verdict.pass() : Verdict.fail("the call is for " + user + ", not " + whose);
    }

    /** {@code node.field} as text when it is a string, else null. */
    static String field(JsonNode node, String field) {
        return Facts.text(node, field);
    }
}
