package dev.stretto.trace.json;

import java.math.BigDecimal;

/**
 * Numbers in text as the reference words them with Rust's formatting: a threshold with {@code
 * Display} ({@code 0.3}, {@code 1}, never an exponent) and a probability with {@code {:.2}}
 * (two decimals of the exact value, ties to even). The proxy's hand-back reasons and the {@code
 * stretto} command's reports use them, so numbers read the same everywhere.
 */
public final class RustText {

    private RustText() {
    }

    /**
     * Rust's {@code Display} of a double: the shortest round-trip digits, no exponent.
     *
     * @param d the number
     * @return {@code 0.3}, {@code 1}, {@code -0}, {@code NaN}, {@code inf}
     */
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

    /**
     * Rust's {@code {:.2}} of a double ({@link CanonicalJson#formatFixed}).
     *
     * @param d the number
     * @return two decimals, ties to even: {@code 0.12} for 0.125, {@code -0.00}, {@code NaN}
     */
    public static String twoDecimals(double d) {
        return CanonicalJson.formatFixed(d, 2);
    }
}
