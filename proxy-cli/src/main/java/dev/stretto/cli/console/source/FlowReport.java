package dev.stretto.cli.console.source;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A flow file as the console shows it.
 *
 * @param text           what {@code stretto flow-show} prints of it
 * @param domain         the flow's domain
 * @param tools          the tools its manifest names
 * @param compiledUnixMs when it was learned
 * @param promoted       whether it carries a promotion record
 */
public record FlowReport(String text, String domain, Set<String> tools, long compiledUnixMs, boolean promoted) {

    /** Copies the tools. */
    public FlowReport {
        Objects.requireNonNull(text, "text");
        tools = Set.copyOf(tools);
    }

    /**
     * The text in its blocks, as flow-show separates them with a blank line: the first says
     * where the flow came from, each other starts with its heading line.
     *
     * @return the blocks, each a list of lines
     */
    public List<List<String>> blocks() {
        List<List<String>> blocks = new java.util.ArrayList<>();
        List<String> block = new java.util.ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isBlank()) {
                if (!block.isEmpty()) {
                    blocks.add(block);
                }
                block = new java.util.ArrayList<>();
            } else {
                block.add(line);
            }
        }
        if (!block.isEmpty()) {
            blocks.add(block);
        }
        return blocks;
    }
}
