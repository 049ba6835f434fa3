package dev.stretto.proxy.flow.bind;

import java.util.Locale;

/** Whether the customer mentioned a value, and which values look like keys. */
public final class Mentions {

    private Mentions() {
    }

    /** A value as the mention rules compare it: lower-cased and trimmed. */
    public static String normal(String value) {
        return value.toLowerCase(Locale.ROOT).strip();
    }

    /**
     * Whether {@code customer} (the customer's lower-cased messages) mentions {@code value}:
     * the value lower-cased and trimmed, or the same without leading {@code #}s, occurs in it;
     * never for a value that is empty without its {@code #}s.
     */
    public static boolean mentions(String customer, String value) {
        String bare = bare(value);
        // The value holds its bare form at its end: where the value occurs, so does that.
        return !bare.isEmpty() && customer.contains(bare);
    }

    /** A value lower-cased and trimmed, without its leading {@code #}s: what a mention of it must hold. */
    static String bare(String value) {
        String v = normal(value);
        int i = 0;
        while (i < v.length() && v.charAt(i) == '#') {
            i++;
        }
        return v.substring(i);
    }

    /** Whether a value looks like a key: at least four characters, one of them an ASCII digit. */
    public static boolean keyish(String value) {
        return value.codePointCount(0, value.length()) >= 4 && value.chars().anyMatch(c -> c >= '0' && c <= '9');
    }
}
