package dev.stretto.proxy.listen;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/** Ids as servers tell them apart (placeholder until the shared JsonRpcId lands). */
final class FlightKeys {
    private static final Pattern PLAIN_INTEGER = Pattern.compile("0|-?[1-9][0-9]{0,17}");
    private static final long SAFE = (1L << 53) - 1;

    private FlightKeys() {
    }

    static String of(JsonNode id) {
        return id.isTextual() ? JsonText.quote(id.textValue()) : ofText(CanonicalJson.write(id));
    }

    static String ofText(String idJson) {
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
}
