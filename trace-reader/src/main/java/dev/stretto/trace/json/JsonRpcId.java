package dev.stretto.trace.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.log.JsonText;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * A JSON-RPC id as one string, by which requests and their answers are matched: the one rule
 * for every reader of the wire (turn inference, tool listings, merged logs, the proxy's call
 * table). A key keeps the number 3 and the string "3" apart and spells a number one way however
 * it was written: a string id quoted, anything else as {@link CanonicalJson} writes it.
 *
 * <p>A {@linkplain #flightKey flight key} is coarser: the id as a server reads it, for telling
 * apart requests a server could confuse ({@code 5} and {@code 5.0} are one number to it).
 */
public final class JsonRpcId {

    private static final Pattern PLAIN_INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,17}");
    /** The largest integer every server reads exactly: JavaScript's numbers are doubles. */
    private static final long SAFE = (1L << 53) - 1;

    private JsonRpcId() {
    }

    /**
     * The key of an id in a parsed message.
     *
     * @param id the id's value (not JSON null: a message without an id has no key)
     * @return a string id quoted, anything else as its canonical JSON
     */
    public static String key(JsonNode id) {
        return id.isTextual() ? JsonText.quote(id.textValue()) : CanonicalJson.write(id);
    }

    /**
     * The key of an id given as its JSON text, as it stands in a line.
     *
     * @param idJson the id's JSON text, or null for none
     * @return its key, or null for none
     */
    public static String keyOfText(String idJson) {
        if (idJson == null || idJson.startsWith("\"") || idJson.equals("null")
                || PLAIN_INTEGER.matcher(idJson).matches()) {
            return idJson;
        }
        return CanonicalJson.write(CanonicalJson.parse(idJson));
    }

    /**
     * The key of a string id.
     *
     * @param id the string
     * @return it, quoted
     */
    public static String keyOfString(String id) {
        return JsonText.quote(id);
    }

    /**
     * The key by which servers tell requests apart, of an id given as its JSON text: a number as
     * the one number every server reads it as ({@code 5}, {@code 5.0}, {@code 5e0} and {@code
     * 50e-1} are one; an integer beyond 2^53 is the double JavaScript rounds it to), a string as
     * {@link #keyOfString}.
     *
     * @param idJson the id's JSON text
     * @return its flight key
     */
    public static String flightKey(String idJson) {
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

    /**
     * The flight key of an id in a parsed message.
     *
     * @param id the id's value
     * @return its flight key
     */
    public static String flightKey(JsonNode id) {
        return id.isTextual() ? keyOfString(id.textValue()) : flightKey(CanonicalJson.write(id));
    }
}
