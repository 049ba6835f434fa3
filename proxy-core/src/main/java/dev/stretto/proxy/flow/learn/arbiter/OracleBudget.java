package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.oracle.Request;
import java.util.List;
import java.util.Locale;

/**
 * What asking the System-One model may cost (stretto-learn 4.2): $0.042 per million input
 * tokens, a token counted as four characters of the request. Learning refuses to start asking
 * when the questions not in the cache could cost more than {@code --oracle-budget}.
 */
public final class OracleBudget {

    static final double DOLLARS_PER_MILLION_TOKENS = 0.042;
    static final double CHARACTERS_PER_TOKEN = 4;

    private OracleBudget() {
    }

    /** The estimated cost of asking {@code requests}, in dollars. */
    public static double dollars(List<Request> requests) {
        double characters = 0;
        for (Request r : requests) {
            String json = r.toJson();
            characters += json.codePointCount(0, json.length());
        }
        return characters / CHARACTERS_PER_TOKEN * DOLLARS_PER_MILLION_TOKENS / 1_000_000;
    }

    /** Dollars as people read them: {@code $0.0012}, four decimals. */
    public static String format(double dollars) {
        return String.format(Locale.ROOT, "$%.4f", dollars);
    }
}
