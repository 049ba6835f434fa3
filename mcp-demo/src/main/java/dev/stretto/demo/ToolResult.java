package dev.stretto.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A {@code tools/call} result with one text item. */
record ToolResult(String text, boolean isError) {

    static ToolResult ok(String text) {
        return new ToolResult(text, false);
    }

    static ToolResult error(String text) {
        return new ToolResult(text, true);
    }

    ObjectNode toJson() {
        ObjectNode item = DemoJson.object();
        item.put("text", text);
        item.put("type", "text");
        ObjectNode node = DemoJson.object();
        node.putArray("content").add(item);
        node.put("isError", isError);
        return node;
    }
}
