package dev.stretto.cli.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.manifest.ToolKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The tools a flow knows, their kinds (only {@code read} tools are ever looked up) and docs:
 * from the sessions' {@code tools/list} answers, or from a manifest file (stretto-learn 2.3).
 */
public final class Manifests {

    private static final Pattern WHITESPACE = Pattern.compile("\\p{IsWhite_Space}+");

    private Manifests() {
    }

    /**
     * The tools the logs listed, read in order: within one log a later listing replaces a
     * tool's kind and doc (and drops the doc when it has none); across logs a later log's
     * kind wins, and its doc too when it has one.
     */
    public static FlowManifest ofLogs(List<SessionLog> logs, String domain) {
        Map<String, ToolKind> tools = ByteOrder.map();
        Map<String, FlowManifest.ToolDoc> docs = ByteOrder.map();
        for (SessionLog log : logs) {
            Map<String, ToolKind> logTools = ByteOrder.map();
            Map<String, FlowManifest.ToolDoc> logDocs = ByteOrder.map();
            for (List<JsonNode> listing : ToolListings.of(log)) {
                for (JsonNode tool : listing) {
                    JsonNode name = tool.get("name");
                    if (name == null || !name.isTextual()) {
                        continue;
                    }
                    JsonNode hint = tool.path("annotations").get("readOnlyHint");
                    logTools.put(name.textValue(), hint == null || !hint.isBoolean() ? ToolKind.GENERIC
                            : hint.booleanValue() ? ToolKind.READ : ToolKind.WRITE);
                    FlowManifest.ToolDoc doc = docOf(tool);
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
        return new FlowManifest(domain, tools, docs);
    }

    private static FlowManifest.ToolDoc docOf(JsonNode tool) {
        JsonNode description = tool.get("description");
        String summary = description != null && description.isTextual() ? collapse(description.textValue()) : "";
        Map<String, String> args = ByteOrder.map();
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
        return summary.isEmpty() && args.isEmpty() ? null : new FlowManifest.ToolDoc(summary, args);
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
     * Reads a manifest file: {@code {"domain", "tools": {name: "read"|"write"|"generic"},
     * "docs"?: {name: {"summary", "args"}}}}.
     *
     * @throws IOException if it cannot be read or is not a manifest (the message names the
     *                     file and what is wrong)
     */
    public static FlowManifest read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Parses a manifest: trace-reader's reading of domain and kinds, and the docs beside them. */
    static FlowManifest parse(String json) {
        Manifest kinds = Manifest.parse(json);
        Map<String, FlowManifest.ToolDoc> docs = ByteOrder.map();
        JsonNode docList = CanonicalJson.parse(json).get("docs");
        if (docList != null && !docList.isNull()) {
            if (!docList.isObject()) {
                throw new IllegalArgumentException("manifest: \"docs\" must map tool names to {\"summary\", \"args\"}");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = docList.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> d = it.next();
                docs.put(d.getKey(), docOfFile(d.getKey(), d.getValue()));
            }
        }
        return new FlowManifest(kinds.domain(), kinds.tools(), docs);
    }

    private static FlowManifest.ToolDoc docOfFile(String tool, JsonNode doc) {
        JsonNode summary = doc.get("summary");
        JsonNode args = doc.get("args");
        if (!doc.isObject() || summary == null || !summary.isTextual() || (args != null && !args.isObject())) {
            throw new IllegalArgumentException("manifest: the doc of \"" + tool
                    + "\" must be {\"summary\": text, \"args\": {name: text}}");
        }
        Map<String, String> argDocs = ByteOrder.map();
        if (args != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> a = it.next();
                if (!a.getValue().isTextual()) {
                    throw new IllegalArgumentException("manifest: the doc of \"" + tool + "\" argument \"" + a.getKey()
                            + "\" must be text");
                }
                argDocs.put(a.getKey(), a.getValue().textValue());
            }
        }
        return new FlowManifest.ToolDoc(summary.textValue(), argDocs);
    }
}
