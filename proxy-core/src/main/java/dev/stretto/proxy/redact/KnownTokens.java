package dev.stretto.proxy.redact;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials recognisable by their form wherever they appear, whatever they were given as:
 * {@code sk-...} (OpenAI's, Anthropic's, OpenRouter's and the many services that copied the
 * form), {@code sk_live_...}, {@code ghp_...}, {@code github_pat_...}, {@code glpat-...},
 * {@code xoxb-...}, {@code AKIA...}, {@code AIza...}, {@code hf_...}, {@code npm_...},
 * {@code ya29....} and JSON web tokens. A server command's redaction ({@link
 * CommandRedactor}) and an upstream URL's ({@link UrlRedactor}) both hide them.
 *
 * <p>A token starts where no letter or digit comes before it. An {@code sk-} key is {@code sk-}
 * and a body of letters, digits, {@code -} and {@code _}: at least 16 of them, or 4 to 15 that
 * hold a digit, or 8 to 15 with letters of both cases. Such a body is random, as keys are;
 * words that start with {@code sk-} are not ({@code sk-SK}, {@code sk-Latn}, {@code sk-learn},
 * {@code sk-learn-extra}) and stay.
 */
public final class KnownTokens {

    /**
     * Prefixes of the forms: only text holding one is searched. Hosts start the proxy often,
     * and most commands hold nothing to redact.
     */
    private static final List<String> PREFIXES = List.of("sk-", "sk_", "rk_", "gh", "github_pat_", "glpat-",
            "xox", "AKIA", "ASIA", "AIza", "hf_", "npm_", "ya29.", "eyJ");

    /** The forms, compiled on first use only: compiling them would delay every start of the proxy. */
    private static final class Forms {
        // A character of an sk- key's body.
        private static final String K = "[A-Za-z0-9_-]";
        static final Pattern TOKEN = Pattern.compile("(?<![A-Za-z0-9])(?:"
                + "sk-(?:" + K + "{16,}|(?=" + K + "*[0-9])" + K + "{4,}|(?=" + K + "*[a-z])(?=" + K + "*[A-Z])"
                + K + "{8,})(?!" + K + ")"
                + "|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"
                + "|gh[pousr]_[A-Za-z0-9]{20,}"
                + "|github_pat_[A-Za-z0-9_]{20,}"
                + "|glpat-[A-Za-z0-9_-]{20,}"
                + "|xox[abprs]-[A-Za-z0-9-]{10,}"
                + "|(?:AKIA|ASIA)[0-9A-Z]{16}"
                + "|AIza[0-9A-Za-z_-]{35}"
                + "|hf_[A-Za-z0-9]{20,}"
                + "|npm_[A-Za-z0-9]{36}"
                + "|ya29\\.[A-Za-z0-9_-]{20,}"
                + "|eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"
                + ")");
    }

    private KnownTokens() {
    }

    /**
     * Whether {@code text} holds a token of a known form.
     *
     * @param text any text
     * @return true when it holds one
     */
    public static boolean in(String text) {
        return mayHold(text) && Forms.TOKEN.matcher(text).find();
    }

    /**
     * {@code text} with every token of a known form replaced.
     *
     * @param text        any text
     * @param replacement what stands in each token's place
     * @return the text without tokens
     */
    public static String redact(String text, String replacement) {
        return mayHold(text) ? Forms.TOKEN.matcher(text).replaceAll(Matcher.quoteReplacement(replacement)) : text;
    }

    /**
     * The tokens of known forms that {@code text} holds, in order.
     *
     * @param text any text
     * @return the tokens, none when it holds none
     */
    public static List<String> found(String text) {
        List<String> out = new ArrayList<>();
        if (mayHold(text)) {
            Matcher m = Forms.TOKEN.matcher(text);
            while (m.find()) {
                out.add(m.group());
            }
        }
        return out;
    }

    private static boolean mayHold(String text) {
        for (String prefix : PREFIXES) {
            if (text.contains(prefix)) {
                return true;
            }
        }
        return false;
    }
}
