package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.JsonRpcId;

/**
 * The actor's names for trace-reader's JSON-RPC id keys ({@link JsonRpcId}), the one rule every
 * reader of the wire matches requests and answers by.
 */
final class IdKey {

    private IdKey() {
    }

    /** The key of an id as {@code JsonRpcPeek} gives it (JSON text), or null for none. */
    static String ofText(String idJson) {
        return JsonRpcId.keyOfText(idJson);
    }

    /** The key of an id in a parsed message. */
    static String of(JsonNode id) {
        return JsonRpcId.key(id);
    }

    /** The key of a string id. */
    static String ofString(String id) {
        return JsonRpcId.keyOfString(id);
    }

    /** The key of an id as {@code JsonRpcPeek} gives it (JSON text) by which servers tell requests apart. */
    static String flight(String idJson) {
        return JsonRpcId.flightKey(idJson);
    }

    /** The flight key of an id in a parsed message. */
    static String flight(JsonNode id) {
        return JsonRpcId.flightKey(id);
    }
}
