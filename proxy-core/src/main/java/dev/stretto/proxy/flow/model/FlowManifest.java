package dev.stretto.proxy.flow.model;

import dev.stretto.trace.manifest.ToolKind;
import java.util.Map;
import java.util.Objects;

/**
 * The server's tools as the flow knows them. Only {@link ToolKind#READ} tools are ever
 * looked up by the flow.
 *
 * @param domain the domain the flow serves
 * @param tools  each tool's kind, sorted by name
 * @param docs   what each documented tool does, sorted by name
 */
public record FlowManifest(String domain, Map<String, ToolKind> tools, Map<String, ToolDoc> docs) {

    /**
     * What a tool does, from its listing.
     *
     * @param summary the tool's description, whitespace collapsed
     * @param args    each described argument's description, sorted by name
     */
    public record ToolDoc(String summary, Map<String, String> args) {
        /** Copies the arguments sorted by name. */
        public ToolDoc {
            Objects.requireNonNull(summary, "summary");
            args = Sorted.byName(args, "args");
        }
    }

    /** Copies the maps sorted by name. */
    public FlowManifest {
        Objects.requireNonNull(domain, "domain");
        tools = Sorted.byName(tools, "tools");
        docs = Sorted.byName(docs, "docs");
    }

    /** Whether the flow may look {@code tool} up: the manifest marks it {@code read}. */
    public boolean isRead(String tool) {
        return tools.get(tool) == ToolKind.READ;
    }
}
