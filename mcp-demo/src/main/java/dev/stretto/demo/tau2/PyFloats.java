package dev.stretto.demo.tau2;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's float arithmetic where it differs from Java's: {@code repr} (which {@code str} and
 * {@code json.dumps} use) and {@code round(x, n)}. τ²'s answers spell every price, amount and
 * balance this way, and a flow binds values by their text, so the spelling must be exact.
 */
final class PyFloats {

    private PyFloats() {
    }

    /**
     * {@code repr(x)}: the shortest decimal that reads back as {@code x} (of those, the
     * closest), in fixed notation when its exponent is from -4 to 15, else as {@code 1e-05},
     * {@code 1.5e+16}; {@code inf}, {@code -inf}, {@code nan}.
     */
    static String repr(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return (1 / x < 0) ? "-0.0" : "0.0";
        }
        BigDecimal shortest = shortest(Math.abs(x));
        String digits = shortest.unscaledValue().toString();
        // Strip trailing zeros of the digit string, keeping the value: d.ddd × 10^(decpt-1).
        int strip = digits.length();
        while (strip > 1 && digits.charAt(strip - 1) == '0') {
            strip--;
        }
        int decpt = digits.length() - shortest.scale();
        digits = digits.substring(0, strip);
        String sign = x < 0 ? "-" : "";
        if (decpt <= -4 || decpt > 16) {
            int exp = decpt - 1;
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = Integer.toString(Math.abs(exp));
            return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        if (decpt <= 0) {
            return sign + "0." + "0".repeat(-decpt) + digits;
        }
        if (decpt < digits.length()) {
            return sign + digits.substring(0, decpt) + "." + digits.substring(decpt);
        }
        return sign + digits + "0".repeat(decpt - digits.length()) + ".0";
    }

    /** The shortest decimal that reads back as {@code x > 0}, the closest of them to it. */
    private static BigDecimal shortest(double x) {
        BigDecimal exact = new BigDecimal(x);
        for (int p = 1; p <= 17; p++) {
            BigDecimal down = exact.round(new MathContext(p, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(p, RoundingMode.CEILING));
            boolean downOk = down.doubleValue() == x;
            boolean upOk = up.doubleValue() == x;
            if (downOk && upOk) {
                int c = exact.subtract(down).compareTo(up.subtract(exact));
                // Equally close: the even last digit, as the correctly rounded one is.
                return c < 0 ? down : c > 0 ? up
                        : exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            }
            if (downOk) {
                return down;
            }
            if (upOk) {
                return up;
            }
        }
        return exact.round(MathContext.DECIMAL64);
    }

    /**
     * {@code round(x, ndigits)} on a float: the exact binary value rounded half to even at
     * that decimal place, read back as the nearest float; the sign of a zero is kept, and
     * infinities and NaN come back as they are.
     */
    static double round(double x, int ndigits) {
        if (Double.isNaN(x) || Double.isInfinite(x) || x == 0) {
            return x;
        }
        double r = new BigDecimal(x).setScale(ndigits, RoundingMode.HALF_EVEN).doubleValue();
        return r == 0 ? Math.copySign(0.0, x) : r;
    }
}
