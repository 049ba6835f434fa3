package dev.stretto.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What a listed tool's annotations say about whether it changes anything. */
enum Hint {
    /** {@code "annotations":{"readOnlyHint":true}} */
    READ_ONLY,
    /** {@code "annotations":{"readOnlyHint":false}} */
    WRITE,
    /** {@code "annotations":{}}: the server says nothing, as many real servers do. */
    NONE;

    ObjectNode annotations() {
        ObjectNode node = DemoJson.object();
        switch (this) {
            case READ_ONLY -> node.put("readOnlyHint", true);
            case WRITE -> node.put("readOnlyHint", false);
            case NONE -> {
            }
        }
        return node;
    }
}
