package dev.stretto.proxy.flow.decide;

import dev.stretto.trace.json.CanonicalJson;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numbers in hand-back reasons as the reference words them with Rust's formatting: a threshold
 * with {@code Display} ({@code 0.3}, {@code 1}, never an exponent) and a probability with
 * {@code {:.2}} (two decimals of the exact value, ties to even). The {@code stretto} command's
 * reports use them too, so numbers read the same there.
 */
public final class RustText {

    private RustText() {
    }

    /** Rust's {@code Display} of a double: the shortest round-trip digits, no exponent. */
    public static String display(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0.0) {
            return Double.doubleToRawLongBits(d) < 0 ? "-0" : "0";
        }
        return new BigDecimal(CanonicalJson.formatDouble(d)).stripTrailingZeros().toPlainString();
    }

    /** Rust's {@code {:.2}} of a double. */
    public static String twoDecimals(double d) {
        if (!Double.isFinite(d)) {
            return display(d);
        }
        String s = new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        return Double.doubleToRawLongBits(d) < 0 && !s.startsWith("-") ? "-" + s : s;
    }
}
