package dev.stretto.trace.episode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.util.ArrayList;
import java.util.List;

/** Writes and reads the Episode JSON of the reference's trace crate. */
final class EpisodeJson {

    private EpisodeJson() {
    }

    static String write(Episode ep) {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"id\":");
        JsonText.appendQuoted(out, ep.id());
        out.append(",\"task_id\":");
        JsonText.appendQuoted(out, ep.taskId());
        out.append(",\"trial\":").append(ep.trial());
        out.append(",\"domain\":");
        JsonText.appendQuoted(out, ep.domain());
        out.append(",\"agent_model\":");
        JsonText.appendQuoted(out, ep.agentModel());
        out.append(",\"reward\":").append(CanonicalJson.formatDouble(ep.reward()));
        out.append(",\"events\":[");
        boolean first = true;
        for (Event e : ep.events()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            appendEvent(out, e);
        }
        return out.append("]}").toString();
    }

    private static void appendEvent(StringBuilder out, Event e) {
        switch (e) {
            case Event.User u -> {
                out.append("{\"kind\":\"user\",\"text\":");
                JsonText.appendQuoted(out, u.text());
                out.append('}');
            }
            case Event.Assistant a -> {
                out.append("{\"kind\":\"assistant\",\"text\":");
                appendNullable(out, a.text());
                out.append(",\"calls\":[");
                for (int i = 0; i < a.calls().size(); i++) {
                    ToolCall c = a.calls().get(i);
                    if (i > 0) {
                        out.append(',');
                    }
                    out.append("{\"id\":");
                    JsonText.appendQuoted(out, c.id());
                    out.append(",\"name\":");
                    JsonText.appendQuoted(out, c.name());
                    out.append(",\"arguments\":");
                    CanonicalJson.append(out, c.arguments());
                    out.append('}');
                }
                out.append("],\"usage\":");
                if (a.usage() == null) {
                    out.append("null");
                } else {
                    Usage u = a.usage();
                    out.append("{\"prompt_tokens\":").append(u.promptTokens())
                            .append(",\"completion_tokens\":").append(u.completionTokens())
                            .append(",\"cost\":").append(CanonicalJson.formatDouble(u.cost()))
                            .append('}');
                }
                out.append('}');
            }
            case Event.ToolResult r -> {
                out.append("{\"kind\":\"tool_result\",\"call_id\":");
                JsonText.appendQuoted(out, r.callId());
                out.append(",\"name\":");
                JsonText.appendQuoted(out, r.name());
                out.append(",\"error\":").append(r.error());
                out.append(",\"content\":");
                JsonText.appendQuoted(out, r.content());
                out.append('}');
            }
        }
    }

    private static void appendNullable(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
        } else {
            JsonText.appendQuoted(out, s);
        }
    }

    static Episode read(String json) {
        JsonNode root = CanonicalJson.parse(json);
        if (!root.isObject()) {
            throw new IllegalArgumentException("an episode is a JSON object");
        }
        List<Event> events = new ArrayList<>();
        JsonNode evs = root.get("events");
        if (evs == null || !evs.isArray()) {
            throw new IllegalArgumentException("episode: \"events\" must be a list");
        }
        for (int i = 0; i < evs.size(); i++) {
            events.add(readEvent(evs.get(i), i));
        }
        return new Episode(string(root, "id", "episode"), string(root, "task_id", "episode"),
                integer(root, "trial", "episode"), string(root, "domain", "episode"),
                string(root, "agent_model", "episode"), number(root, "reward", "episode"), events);
    }

    private static Event readEvent(JsonNode e, int index) {
        String where = "events[" + index + "]";
        if (!e.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        String kind = string(e, "kind", where);
        return switch (kind) {
            case "user" -> new Event.User(string(e, "text", where));
            case "assistant" -> {
                JsonNode text = e.get("text");
                if (text != null && !text.isNull() && !text.isTextual()) {
                    throw new IllegalArgumentException(where + ": \"text\" must be a string or null");
                }
                List<ToolCall> calls = new ArrayList<>();
                JsonNode cs = e.get("calls");
                if (cs != null && !cs.isNull()) {
                    if (!cs.isArray()) {
                        throw new IllegalArgumentException(where + ": \"calls\" must be a list");
                    }
                    for (int j = 0; j < cs.size(); j++) {
                        JsonNode c = cs.get(j);
                        String cw = where + ".calls[" + j + "]";
                        if (!c.isObject()) {
                            throw new IllegalArgumentException(cw + " must be an object");
                        }
                        JsonNode args = c.get("arguments");
                        if (args == null) {
                            throw new IllegalArgumentException(cw + ": \"arguments\" is missing");
                        }
                        calls.add(new ToolCall(string(c, "id", cw), string(c, "name", cw), args));
                    }
                }
                Usage usage = null;
                JsonNode u = e.get("usage");
                if (u != null && !u.isNull()) {
                    String uw = where + ".usage";
                    if (!u.isObject()) {
                        throw new IllegalArgumentException(uw + " must be an object or null");
                    }
                    usage = new Usage(integer(u, "prompt_tokens", uw), integer(u, "completion_tokens", uw),
                            number(u, "cost", uw));
                }
                yield new Event.Assistant(text == null || text.isNull() ? null : text.textValue(), calls, usage);
            }
            case "tool_result" -> {
                JsonNode err = e.get("error");
                if (err == null || !err.isBoolean()) {
                    throw new IllegalArgumentException(where + ": \"error\" must be true or false");
                }
                yield new Event.ToolResult(string(e, "call_id", where), string(e, "name", where),
                        err.booleanValue(), string(e, "content", where));
            }
            default -> throw new IllegalArgumentException(where + ": unknown kind \"" + kind + "\"");
        };
    }

    private static String string(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" must be a string");
        }
        return v.textValue();
    }

    private static long integer(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" must be an integer");
        }
        return v.longValue();
    }

    private static double number(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" must be a number");
        }
        return v.doubleValue();
    }
}
