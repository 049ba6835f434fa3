package dev.stretto.proxy.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.stretto.trace.log.JsonText;
import java.io.IOException;

/**
 * Reads only what the HTTP upstream and the active-mode actor need from one JSON-RPC message:
 * its kind, method and id, and for a result the {@code protocolVersion} field (the initialize
 * answer's). Everything else is skipped by the streaming parser, which still checks it is
 * well-formed JSON: one look at a line, not a parse into a tree.
 *
 * @param kind            what the bytes are
 * @param method          the method name, or null
 * @param id              the id as JSON text (a string quoted, a number as spelled, or
 *                        {@code null}), or null when the message has no usable id
 * @param protocolVersion {@code result.protocolVersion} when it is a string, else null
 */
public record JsonRpcPeek(Kind kind, String method, String id, String protocolVersion) {

    /** The kinds of line the upstream tells apart. */
    public enum Kind {
        /** Only whitespace. */
        BLANK,
        /** Not one well-formed JSON value. */
        NOT_JSON,
        /** One JSON value that is not an object, such as a batch array. */
        NOT_OBJECT,
        /** An object with a method and an id. */
        REQUEST,
        /** An object with a method and no id. */
        NOTIFICATION,
        /** An object without a method but with an id (a result or an error). */
        RESPONSE,
        /** Any other object. */
        OTHER_OBJECT
    }

    // Multi-megabyte strings and deep nesting are legitimate MCP payloads; the peek only
    // tokenises, iteratively, so lifting Jackson's default guards costs nothing.
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .build())
            .build();

    /** Looks at one line (without its terminator; a trailing {@code '\r'} is white space). */
    public static JsonRpcPeek of(byte[] bytes) {
        if (isBlank(bytes)) {
            return new JsonRpcPeek(Kind.BLANK, null, null, null);
        }
        try (JsonParser p = FACTORY.createParser(bytes)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                p.skipChildren();
                return ended(p) ? new JsonRpcPeek(Kind.NOT_OBJECT, null, null, null) : notJson();
            }
            String method = null;
            String id = null;
            boolean hasId = false;
            String version = null;
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "method" -> {
                        if (value == JsonToken.VALUE_STRING) {
                            method = p.getText();
                        }
                        p.skipChildren();
                    }
                    case "id" -> {
                        hasId = true;
                        id = switch (value) {
                            case VALUE_STRING -> JsonText.quote(p.getText());
                            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getText();
                            case VALUE_NULL -> "null";
                            default -> null;
                        };
                        p.skipChildren();
                    }
                    case "result" -> {
                        if (value == JsonToken.START_OBJECT) {
                            version = protocolVersion(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (t != JsonToken.END_OBJECT || !ended(p)) {
                return notJson();
            }
            Kind kind;
            if (method != null) {
                kind = hasId ? Kind.REQUEST : Kind.NOTIFICATION;
            } else if (hasId) {
                kind = Kind.RESPONSE;
            } else {
                kind = Kind.OTHER_OBJECT;
            }
            return new JsonRpcPeek(kind, method, id, version);
        } catch (IOException malformed) {
            return notJson();
        }
    }

    /** Reads the fields of the result object the parser is at, returning its protocolVersion. */
    private static String protocolVersion(JsonParser p) throws IOException {
        String version = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (name.equals("protocolVersion") && value == JsonToken.VALUE_STRING) {
                version = p.getText();
            }
            p.skipChildren();
        }
        return version;
    }

    private static boolean ended(JsonParser p) throws IOException {
        return p.nextToken() == null;
    }

    private static JsonRpcPeek notJson() {
        return new JsonRpcPeek(Kind.NOT_JSON, null, null, null);
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }
}
