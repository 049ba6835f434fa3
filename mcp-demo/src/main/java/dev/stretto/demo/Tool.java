package dev.stretto.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** One tool as {@code tools/list} shows it. */
record Tool(String name, String description, ObjectNode inputSchema, Hint hint) {

    Tool withHint(Hint newHint) {
        return new Tool(name, description, inputSchema, newHint);
    }

    Tool withDescription(String newDescription) {
        return new Tool(name, newDescription, inputSchema, hint);
    }

    ObjectNode toJson() {
        ObjectNode node = DemoJson.object();
        node.set("annotations", hint.annotations());
        node.put("description", description);
        node.set("inputSchema", inputSchema.deepCopy());
        node.put("name", name);
        return node;
    }
}
