package dev.stretto.trace.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The tools of one server and what each does: from the {@code tools/list} answers in
 * session logs, or from a manifest file (what {@code stretto learn --manifest} reads when a
 * server gives no hints). A flow's manifest is made of one.
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
 * A file may also hold {@code "docs": {name: {"summary": text, "args": {arg: text}}}}, which
 * is read but not written: docs are known from logs.
 *
 * @param domain the domain the tools belong to
 * @param tools  each tool's kind, in the order the server listed them (or the file names them)
 * @param docs   for tools whose listing described them: what each does, in the order listed
 */
public record Manifest(String domain, Map<String, ToolKind> tools, Map<String, ToolDoc> docs) {

    private static final Pattern WHITESPACE = Pattern.compile("\\p{IsWhite_Space}+");

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
     * What a tool does, from its listing: its description and each described argument's,
     * whitespace collapsed (split on any Unicode whitespace, joined by one space).
     *
     * @param summary the tool's description; empty when it has none
     * @param args    each described argument's description, by name in byte order
     */
    public record ToolDoc(String summary, Map<String, String> args) {

        /**
         * Copies the arguments sorted by name, in the byte order of their UTF-8 encodings.
         *
         * @throws NullPointerException when the summary, an argument or its description is null
         */
        public ToolDoc {
            Objects.requireNonNull(summary, "summary");
            TreeMap<String, String> sorted = new TreeMap<>(CanonicalJson::compareCodePoints);
            args.forEach((arg, doc) -> sorted.put(Objects.requireNonNull(arg, "arg"), Objects.requireNonNull(doc, "doc")));
            args = Collections.unmodifiableSortedMap(sorted);
        }
    }

    /**
     * The tools listed in one session log. Every {@code tools/list} answer ({@link
     * ToolListings}) counts; a tool listed again takes its latest kind and doc (and loses its
     * doc when the later listing has none). {@code readOnlyHint: true} is {@link ToolKind#READ},
     * {@code false} {@link ToolKind#WRITE}, and anything else {@link ToolKind#GENERIC}.
     *
     * @param log    the session log
     * @param domain the manifest's domain
     * @return the manifest
     */
    public static Manifest of(SessionLog log, String domain) {
        return of(List.of(log), domain);
    }

    /**
     * The tools listed in several logs of one server, read in the order given, as the reference
     * merges them: within one log a later listing replaces a tool's kind and doc (and removes
     * the doc when it has none); across logs a later log's kind wins, and its doc too when it
     * has one (a later log without a doc does not remove an earlier log's).
     *
     * @param logs   the session logs
     * @param domain the manifest's domain
     * @return the manifest
     */
    public static Manifest of(List<SessionLog> logs, String domain) {
        Map<String, ToolKind> tools = new LinkedHashMap<>();
        Map<String, ToolDoc> docs = new LinkedHashMap<>();
        for (SessionLog log : logs) {
            Map<String, ToolKind> logTools = new LinkedHashMap<>();
            Map<String, ToolDoc> logDocs = new LinkedHashMap<>();
            for (List<JsonNode> listing : ToolListings.of(log)) {
                for (JsonNode tool : listing) {
                    JsonNode name = tool.get("name");
                    if (name == null || !name.isTextual()) {
                        continue;
                    }
                    logTools.put(name.textValue(), ToolKind.ofListing(tool));
                    ToolDoc doc = docOf(tool);
                    if (doc == null) {
                        logDocs.remove(name.textValue());
                    } else {
                        logDocs.put(name.textValue(), doc);
                    }
                }
            }
            tools.putAll(logTools);
            docs.putAll(logDocs);
        }
        return new Manifest(domain, tools, docs);
    }

    /** A listed tool's doc, or null when it has neither a description nor described arguments. */
    private static ToolDoc docOf(JsonNode tool) {
        JsonNode description = tool.get("description");
        String summary = description != null && description.isTextual() ? collapse(description.textValue()) : "";
        Map<String, String> args = new LinkedHashMap<>();
        JsonNode props = tool.path("inputSchema").get("properties");
        if (props != null && props.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                JsonNode d = p.getValue().get("description");
                if (d != null && d.isTextual()) {
                    args.put(p.getKey(), collapse(d.textValue()));
                }
            }
        }
        return summary.isEmpty() && args.isEmpty() ? null : new ToolDoc(summary, args);
    }

    /** Splits on any Unicode whitespace (as Rust's split_whitespace) and joins with one space. */
    static String collapse(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (String word : WHITESPACE.split(s)) {
            if (!word.isEmpty()) {
                out.append(out.isEmpty() ? "" : " ").append(word);
            }
        }
        return out.toString();
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
     * mapped to {@code read}, {@code write} or {@code generic}, and optionally {@code docs}.
     * Other fields are ignored.
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
        return new Manifest(domain.textValue(), tools, docs(root.get("docs")));
    }

    /** A manifest file's docs, {@code {name: {"summary": text, "args": {name: text}}}}, if any. */
    private static Map<String, ToolDoc> docs(JsonNode docList) {
        Map<String, ToolDoc> docs = new LinkedHashMap<>();
        if (docList == null || docList.isNull()) {
            return docs;
        }
        if (!docList.isObject()) {
            throw new IllegalArgumentException("manifest: \"docs\" must map tool names to {\"summary\", \"args\"}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = docList.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> d = it.next();
            String tool = d.getKey();
            JsonNode doc = d.getValue();
            JsonNode summary = doc.get("summary");
            JsonNode args = doc.get("args");
            if (!doc.isObject() || summary == null || !summary.isTextual() || (args != null && !args.isObject())) {
                throw new IllegalArgumentException("manifest: the doc of \"" + tool
                        + "\" must be {\"summary\": text, \"args\": {name: text}}");
            }
            Map<String, String> argDocs = new LinkedHashMap<>();
            if (args != null) {
                for (Iterator<Map.Entry<String, JsonNode>> a = args.fields(); a.hasNext(); ) {
                    Map.Entry<String, JsonNode> arg = a.next();
                    if (!arg.getValue().isTextual()) {
                        throw new IllegalArgumentException("manifest: the doc of \"" + tool + "\" argument \""
                                + arg.getKey() + "\" must be text");
                    }
                    argDocs.put(arg.getKey(), arg.getValue().textValue());
                }
            }
            docs.put(tool, new ToolDoc(summary.textValue(), argDocs));
        }
        return docs;
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
