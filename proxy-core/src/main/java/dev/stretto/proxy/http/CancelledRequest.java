package dev.stretto.proxy.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stretto.trace.log.JsonText;
import java.io.IOException;

/**
 * The request a {@code notifications/cancelled} from the host names: its {@code
 * params.requestId}, as JSON text in the form {@link JsonRpcPeek#id()} gives a request's id (a
 * string quoted, a number as spelled), so that it finds the request under the same key. A key
 * given twice counts as the last, as Jackson and most servers read it. It reads the line as
 * {@link JsonRpcPeek} does, with its parser.
 */
final class CancelledRequest {

    static final String METHOD = "notifications/cancelled";

    private CancelledRequest() {
    }

    /** The id of the request {@code line} cancels, or null when it names none a request could have. */
    static String idOf(byte[] line) {
        try (JsonParser p = JsonRpcPeek.FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String id = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("params")) {
                    id = value == JsonToken.START_OBJECT ? requestId(p) : null;
                    if (value != JsonToken.START_OBJECT) {
                        p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
            return id;
        } catch (IOException malformed) {
            return null;
        }
    }

    /** Reads the params object the parser is at, returning its requestId as an id's JSON text. */
    private static String requestId(JsonParser p) throws IOException {
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (name.equals("requestId")) {
                id = switch (value) {
                    case VALUE_STRING -> JsonText.quote(p.getText());
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getText();
                    default -> null;
                };
            }
            p.skipChildren();
        }
        return id;
    }
}
