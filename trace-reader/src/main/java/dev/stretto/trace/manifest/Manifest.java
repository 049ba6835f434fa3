package dev.stretto.trace.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The tools of one server and what each does: from the {@code tools/list} answers in
 * session logs, or from a manifest file (what {@code stretto learn --manifest} reads when a
 * server gives no hints).
 *
 * <p>The file is pretty-printed JSON with a trailing newline, tools in the order given:
 * <pre>{@code
 * {
 *   "domain": "notes",
 *   "tools": {
 *     "search_files": "read",
 *     "write_file": "write"
 *   }
 * }
 * }</pre>
 * Docs are not part of the file; they are only known from logs.
 *
 * @param domain the domain the tools belong to
 * @param tools  each tool's kind, in the order the server listed them (or the file names them)
 * @param docs   for tools whose listing described them: the description followed by each
 *               described parameter as {@code name: description}, whitespace collapsed
 */
public record Manifest(String domain, Map<String, ToolKind> tools, Map<String, String> docs) {

    /**
     * Checks the manifest and copies its maps, keeping their order.
     *
     * @throws NullPointerException when a component is null
     */
    public Manifest {
        Objects.requireNonNull(domain, "domain");
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        docs = Collections.unmodifiableMap(new LinkedHashMap<>(docs));
    }

    /**
     * The tools listed in one session log. Every {@code tools/list} answer (the first response
     * to a {@code tools/list} request of the client) counts; a tool listed again takes its
     * latest kind. {@code readOnlyHint: true} is {@link ToolKind#READ}, {@code false}
     * {@link ToolKind#WRITE}, and anything else {@link ToolKind#GENERIC}.
     *
     * @param log    the session log
     * @param domain the manifest's domain
     * @return the manifest
     */
    public static Manifest of(SessionLog log, String domain) {
        return of(List.of(log), domain);
    }

    /**
     * The tools listed in several logs of one server, read in the order given.
     *
     * @param logs   the session logs
     * @param domain the manifest's domain
     * @return the manifest
     */
    public static Manifest of(List<SessionLog> logs, String domain) {
        Map<String, ToolKind> tools = new LinkedHashMap<>();
        Map<String, String> docs = new LinkedHashMap<>();
        for (SessionLog log : logs) {
            collect(log, tools, docs);
        }
        return new Manifest(domain, tools, docs);
    }

    private static void collect(SessionLog log, Map<String, ToolKind> tools, Map<String, String> docs) {
        Set<String> asked = new HashSet<>();
        for (LogEntry e : log.entries()) {
            if (!(e.payload() instanceof Payload.Message m) || e.from() == Source.CONTEXT) {
                continue;
            }
            Optional<JsonNode> parsed = m.tree();
            if (parsed.isEmpty()) {
                continue;
            }
            JsonNode node = parsed.get();
            for (JsonNode msg : node.isArray() ? node : List.of(node)) {
                if (!msg.isObject()) {
                    continue;
                }
                JsonNode id = msg.get("id");
                if (id == null || id.isNull()) {
                    continue;
                }
                String key = (id.isTextual() ? "s" : "j") + (id.isTextual() ? id.textValue() : CanonicalJson.write(id));
                JsonNode method = msg.get("method");
                if (method != null) {
                    if (e.from() == Source.CLIENT && "tools/list".equals(method.textValue())) {
                        asked.add(key);
                    }
                } else if (e.from() != Source.CLIENT && asked.remove(key)) {
                    JsonNode list = msg.path("result").get("tools");
                    if (list != null && list.isArray()) {
                        for (JsonNode tool : list) {
                            addTool(tool, tools, docs);
                        }
                    }
                }
            }
        }
    }

    private static void addTool(JsonNode tool, Map<String, ToolKind> tools, Map<String, String> docs) {
        JsonNode name = tool.get("name");
        if (name == null || !name.isTextual()) {
            return;
        }
        JsonNode hint = tool.path("annotations").get("readOnlyHint");
        ToolKind kind = hint == null || !hint.isBoolean() ? ToolKind.GENERIC
                : hint.booleanValue() ? ToolKind.READ : ToolKind.WRITE;
        tools.put(name.textValue(), kind);
        StringBuilder doc = new StringBuilder();
        JsonNode description = tool.get("description");
        if (description != null && description.isTextual()) {
            doc.append(description.textValue());
        }
        JsonNode props = tool.path("inputSchema").get("properties");
        if (props != null && props.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                JsonNode d = p.getValue().get("description");
                if (d != null && d.isTextual() && !d.textValue().isBlank()) {
                    doc.append(' ').append(p.getKey()).append(": ").append(d.textValue());
                }
            }
        }
        String collapsed = collapseWhitespace(doc.toString());
        if (collapsed.isEmpty()) {
            docs.remove(name.textValue());
        } else {
            docs.put(name.textValue(), collapsed);
        }
    }

    /** Trims {@code s} and turns every run of whitespace inside it into one space. */
    static String collapseWhitespace(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    /**
     * Reads a manifest file.
     *
     * @param file the file
     * @return the manifest
     * @throws IOException if it cannot be read or is not a manifest (the message names the
     *                     file and the reason)
     */
    public static Manifest read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses a manifest's JSON: an object with {@code domain} and {@code tools}, each tool
     * mapped to {@code read}, {@code write} or {@code generic}. Other fields are ignored.
     *
     * @param json the manifest's JSON
     * @return the manifest
     * @throws IllegalArgumentException if it is not a manifest, with the reason
     */
    public static Manifest parse(String json) {
        JsonNode root = CanonicalJson.parse(json);
        if (!root.isObject()) {
            throw new IllegalArgumentException("a manifest is a JSON object");
        }
        JsonNode domain = root.get("domain");
        if (domain == null || !domain.isTextual()) {
            throw new IllegalArgumentException("manifest: \"domain\" must be a string");
        }
        JsonNode list = root.get("tools");
        if (list == null || !list.isObject()) {
            throw new IllegalArgumentException("manifest: \"tools\" must map tool names to kinds");
        }
        Map<String, ToolKind> tools = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = list.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> t = it.next();
            if (!t.getValue().isTextual()) {
                throw new IllegalArgumentException("manifest: the kind of \"" + t.getKey() + "\" must be a string");
            }
            tools.put(t.getKey(), ToolKind.ofWireName(t.getValue().textValue()));
        }
        return new Manifest(domain.textValue(), tools, Map.of());
    }

    /**
     * The manifest file's text: pretty-printed with two-space indents, tools in order, and a
     * trailing newline, as the reference writes it.
     *
     * @return the file's text
     */
    public String toJson() {
        StringBuilder out = new StringBuilder(64 + 48 * tools.size());
        out.append("{\n  \"domain\": ");
        JsonText.appendQuoted(out, domain);
        out.append(",\n  \"tools\": ");
        if (tools.isEmpty()) {
            out.append("{}");
        } else {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, ToolKind> t : tools.entrySet()) {
                out.append(first ? "\n" : ",\n").append("    ");
                first = false;
                JsonText.appendQuoted(out, t.getKey());
                out.append(": ");
                JsonText.appendQuoted(out, t.getValue().wireName());
            }
            out.append("\n  }");
        }
        return out.append("\n}\n").toString();
    }

    /**
     * Writes {@link #toJson()} to a file, replacing it.
     *
     * @param file the file
     * @throws IOException when it cannot be written
     */
    public void write(Path file) throws IOException {
        Files.writeString(file, toJson(), StandardCharsets.UTF_8);
    }
}
