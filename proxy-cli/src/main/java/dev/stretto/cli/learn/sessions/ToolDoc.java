package dev.stretto.cli.learn.sessions;

import dev.stretto.cli.learn.ByteOrder;
import java.util.Collections;
import java.util.SortedMap;

/**
 * What a tool's listing said about it, whitespace collapsed: the flow's
 * {@code manifest.docs} entry, which the System-One questions quote.
 *
 * @param summary the tool's description ({@code ""} when it has none)
 * @param args    each described parameter's description, by name in byte order
 */
public record ToolDoc(String summary, SortedMap<String, String> args) {

    public ToolDoc {
        args = Collections.unmodifiableSortedMap(ByteOrder.copy(args));
    }
}
