package dev.stretto.proxy.flow.model;

import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.manifest.ToolKind;
import java.util.Map;
import java.util.Objects;

/**
 * The server's tools as the flow knows them. Only {@link ToolKind#READ} tools are ever
 * looked up by the flow.
 *
 * @param domain the domain the flow serves
 * @param tools  each tool's kind, sorted by name
 * @param docs   what each documented tool does ({@link Manifest.ToolDoc}), sorted by name
 */
public record FlowManifest(String domain, Map<String, ToolKind> tools, Map<String, Manifest.ToolDoc> docs) {

    /** Copies the maps sorted by name. */
    public FlowManifest {
        Objects.requireNonNull(domain, "domain");
        tools = Sorted.byName(tools, "tools");
        docs = Sorted.byName(docs, "docs");
    }

    /**
     * The flow's manifest of the tools a server listed (or a manifest file names): the same
     * kinds and docs, sorted by name.
     */
    public static FlowManifest of(Manifest manifest) {
        return new FlowManifest(manifest.domain(), manifest.tools(), manifest.docs());
    }

    /** Whether the flow may look {@code tool} up: the manifest marks it {@code read}. */
    public boolean isRead(String tool) {
        return tools.get(tool) == ToolKind.READ;
    }
}
