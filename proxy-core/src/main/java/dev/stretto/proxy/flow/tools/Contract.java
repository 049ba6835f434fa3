package dev.stretto.proxy.flow.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A tool's input contract, computed from the {@code inputSchema} of its listing: for each
 * property {@code name:type} (the type string as written, an array of type strings joined with
 * {@code |}, {@code any} for anything else: missing, or an array holding something other than
 * a string), with {@code !} when the property is listed in {@code required}; sorted as strings
 * and joined with {@code ", "} ({@code order_id:string!, reason:string!}). A tool whose {@code
 * inputSchema} is missing or not an object has none. {@code stretto learn} pins the contracts
 * of the tools it learned with, and the proxy serving the flow computes the live ones by the
 * same rule: a tool whose live contract differs is no longer looked up.
 */
public final class Contract {

    private Contract() {
    }

    /** The contract of a tool whose listing has {@code inputSchema} (an object), or null when it has none. */
    public static String of(JsonNode inputSchema) {
        if (inputSchema == null || !inputSchema.isObject()) {
            return null;
        }
        List<String> required = new ArrayList<>();
        JsonNode req = inputSchema.get("required");
        if (req != null && req.isArray()) {
            req.forEach(r -> {
                if (r.isTextual()) {
                    required.add(r.textValue());
                }
            });
        }
        List<String> parts = new ArrayList<>();
        JsonNode props = inputSchema.get("properties");
        if (props != null && props.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                parts.add(p.getKey() + ":" + type(p.getValue().get("type")) + (required.contains(p.getKey()) ? "!" : ""));
            }
        }
        parts.sort(CanonicalJson::compareCodePoints);
        return String.join(", ", parts);
    }

    private static String type(JsonNode type) {
        if (type != null && type.isTextual()) {
            return type.textValue();
        }
        if (type != null && type.isArray()) {
            List<String> names = new ArrayList<>();
            for (JsonNode t : type) {
                if (!t.isTextual()) {
                    return "any";
                }
                names.add(t.textValue());
            }
            return String.join("|", names);
        }
        return "any";
    }

    /** The required arguments of a contract (those marked {@code !}), in its order. */
    public static List<String> required(String contract) {
        List<String> names = new ArrayList<>();
        if (contract == null || contract.isEmpty()) {
            return names;
        }
        for (String part : contract.split(", ")) {
            int colon = part.indexOf(':');
            if (part.endsWith("!") && colon > 0) {
                names.add(part.substring(0, colon));
            }
        }
        return names;
    }
}
