package dev.stretto.proxy.judge;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a message states a value, the way a customer names an order, a card or an amount:
 * case aside; a number only where it is not part of a longer number ({@code 54.04} is not
 * stated by {@code 154.04} or {@code 54.045}); an id such as {@code credit_card_4196779} also
 * by its digits alone; an order id with or without its {@code #}.
 */
final class Mentions {

    private static final Pattern ID_WITH_NUMBER = Pattern.compile("[a-z]+(?:_[a-z]+)*_([0-9]+)");

    private Mentions() {
    }

    static boolean states(String message, String value) {
        String text = message.toLowerCase(Locale.ROOT);
        String v = value.toLowerCase(Locale.ROOT);
        if (contains(text, v)) {
            return true;
        }
        if (v.length() > 1 && v.startsWith("#") && contains(text, v.substring(1))) {
            return true;
        }
        Matcher id = ID_WITH_NUMBER.matcher(v);
        return id.matches() && contains(text, id.group(1));
    }

    /** {@code text} holds {@code v}, and where {@code v} starts or ends with a digit, no number goes on beyond it. */
    private static boolean contains(String text, String v) {
        if (v.isEmpty()) {
            return false;
        }
        for (int at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + 1)) {
            int end = at + v.length();
            boolean startsClean = !Scalars.isDigit(v.charAt(0)) || !numberGoesOnBefore(text, at);
            boolean endsClean = !Scalars.isDigit(v.charAt(v.length() - 1)) || !numberGoesOnAfter(text, end);
            if (startsClean && endsClean) {
                return true;
            }
        }
        return false;
    }

    // A digit right before, or a decimal point or thousands separator with a digit before it.
    private static boolean numberGoesOnBefore(String text, int at) {
        if (at == 0) {
            return false;
        }
        char c = text.charAt(at - 1);
        return Scalars.isDigit(c) || ((c == '.' || c == ',') && at >= 2 && Scalars.isDigit(text.charAt(at - 2)));
    }

    private static boolean numberGoesOnAfter(String text, int end) {
        if (end >= text.length()) {
            return false;
        }
        char c = text.charAt(end);
        return Scalars.isDigit(c)
                || ((c == '.' || c == ',') && end + 1 < text.length() && Scalars.isDigit(text.charAt(end + 1)));
    }
}
