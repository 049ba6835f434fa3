package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The lists of records in a tool's result, at any depth and in document order: an array with
 * two or more objects (its objects are the records), or an object with two or more objects
 * among its values (those values are the records, as in {@code payment_methods} keyed by id).
 * A record's "own scalar fields" are its direct string and number values.
 */
final class RecordLists {

    private RecordLists() {
    }

    static List<List<JsonNode>> in(JsonNode root) {
        List<List<JsonNode>> lists = new ArrayList<>();
        collect(root, lists);
        return lists;
    }

    private static void collect(JsonNode node, List<List<JsonNode>> lists) {
        if (!node.isContainerNode()) {
            return;
        }
        List<JsonNode> records = new ArrayList<>();
        for (JsonNode child : node) {
            if (child.isObject()) {
                records.add(child);
            }
        }
        if (records.size() >= 2) {
            lists.add(records);
        }
        for (JsonNode child : node) {
            collect(child, lists);
        }
    }

    /** The records of {@code list} that hold {@code value} among their own scalar fields. */
    static List<JsonNode> holding(List<JsonNode> list, String value) {
        return list.stream().filter(r -> Scalars.fieldsOf(r).contains(value)).toList();
    }
}
