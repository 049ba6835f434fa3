package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.util.regex.Pattern;

/**
 * A JSON-RPC id as one string that keeps the number 3 and the string "3" apart and spells a
 * number one way however it was written: a string id quoted, a number as {@link
 * CanonicalJson} writes it.
 */
final class IdKey {
    private static final Pattern PLAIN_INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,17}");

    private IdKey() {
    }

    /** The key of an id as {@code JsonRpcPeek} gives it (JSON text), or null for none. */
    static String ofText(String idJson) {
        if (idJson == null || idJson.startsWith("\"") || idJson.equals("null") || PLAIN_INTEGER.matcher(idJson).matches()) {
            return idJson;
        }
        return CanonicalJson.write(CanonicalJson.parse(idJson));
    }

    /** The key of an id in a parsed message. */
    static String of(JsonNode id) {
        return id.isTextual() ? JsonText.quote(id.textValue()) : CanonicalJson.write(id);
    }

    /** The key of a string id. */
    static String ofString(String id) {
        return JsonText.quote(id);
    }
}
