package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** Scalar JSON values as the text they compare by: strings as they are, numbers as numbers. */
final class Scalars {

    private Scalars() {
    }

    /**
     * The text of a string or number; null for anything else. A number is written as Rust's
     * {@code Display} writes it, which is how a person writes it: {@code 54} for 54.0,
     * {@code 0.0000001} for 1e-7, never an exponent.
     */
    static String text(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue().toString();
        }
        if (value.isNumber()) {
            double d = value.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return null;
            }
            return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        }
        return null;
    }

    /** The texts of a record's own scalar fields, in order. */
    static List<String> fieldsOf(JsonNode record) {
        List<String> out = new ArrayList<>();
        for (JsonNode field : record) {
            String t = text(field);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    /** The texts of a call's argument values: each scalar, and each scalar inside an array. */
    static List<String> argumentTexts(JsonNode arguments) {
        List<String> out = new ArrayList<>();
        for (JsonNode value : arguments) {
            for (JsonNode item : value.isArray() ? value : List.of(value)) {
                String t = text(item);
                if (t != null) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    static boolean hasDigit(String s) {
        return s.chars().anyMatch(Scalars::isDigit);
    }

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
