package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A JSON-RPC id as one string that keeps the number 3 and the string "3" apart and spells a
 * number one way however it was written: a string id quoted, a number as {@link
 * CanonicalJson} writes it.
 */
final class IdKey {
    private static final Pattern PLAIN_INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,17}");
    /** The largest integer every server reads exactly: JavaScript's numbers are doubles. */
    private static final long SAFE = (1L << 53) - 1;

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

    /**
     * The key of an id as {@code JsonRpcPeek} gives it (JSON text) by which servers tell
     * requests apart: a number as the one number every server reads it as ({@code 5}, {@code
     * 5.0}, {@code 5e0} and {@code 50e-1} are one; an integer beyond 2^53 is the double
     * JavaScript rounds it to), a string as {@link #ofString}.
     */
    static String flight(String idJson) {
        if (idJson.startsWith("\"") || idJson.equals("null")) {
            return idJson;
        }
        if (PLAIN_INTEGER.matcher(idJson).matches() && Math.abs(Long.parseLong(idJson)) <= SAFE) {
            return idJson;
        }
        BigDecimal n;
        try {
            n = new BigDecimal(idJson);
        } catch (NumberFormatException e) {
            return idJson;
        }
        if (n.signum() == 0) {
            return "0";
        }
        if (n.stripTrailingZeros().scale() <= 0 && n.abs().compareTo(BigDecimal.valueOf(SAFE)) <= 0) {
            return n.toBigIntegerExact().toString();
        }
        return Double.toString(n.doubleValue());
    }

    /** The flight key of an id in a parsed message. */
    static String flight(JsonNode id) {
        return id.isTextual() ? ofString(id.textValue()) : flight(CanonicalJson.write(id));
    }
}
