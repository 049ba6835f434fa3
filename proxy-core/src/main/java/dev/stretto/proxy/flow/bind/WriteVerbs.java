package dev.stretto.proxy.flow.bind;

import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.trace.manifest.ToolKind;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verbs of a flow's writes (the first word of each write tool's name: {@code exchange} of
 * {@code exchange_delivered_order_items}), and which of them the customer said a mention with.
 * A customer who writes "return the water bottle, and exchange the pet bed" wants different
 * things of the two items, and an agent reads what it needs for each accordingly: the verb
 * tells the lookups of the two apart where the mention alone does not.
 *
 * @param verbs the verbs, sorted
 */
public record WriteVerbs(Set<String> verbs) {

    /** No verbs: no mention is said with one. */
    public static final WriteVerbs NONE = new WriteVerbs(Set.of());

    /** Copies the verbs, sorted. */
    public WriteVerbs {
        verbs = java.util.Collections.unmodifiableSet(new TreeSet<>(verbs));
    }

    /** The verbs of {@code manifest}'s write tools that are plain words ({@link LookupThresholds.When#isVerb}). */
    public static WriteVerbs of(FlowManifest manifest) {
        Set<String> verbs = new TreeSet<>();
        for (Map.Entry<String, ToolKind> t : manifest.tools().entrySet()) {
            if (t.getValue() == ToolKind.WRITE) {
                String verb = firstWord(t.getKey());
                if (LookupThresholds.When.isVerb(verb)) {
                    verbs.add(verb);
                }
            }
        }
        return new WriteVerbs(verbs);
    }

    /** A tool name's first word, lower-cased: up to its first character that is not a letter, or its second capital. */
    static String firstWord(String tool) {
        int end = 0;
        while (end < tool.length() && Character.isLetter(tool.charAt(end))
                && (end == 0 || !Character.isUpperCase(tool.charAt(end)))) {
            end++;
        }
        return tool.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /**
     * The verb the customer said {@code mention} with: of the words before its first occurrence
     * in {@code customer}, back to the start of that sentence (a {@code .}, {@code !} or
     * {@code ?} followed by a space, or a line break), the last that begins with one of the
     * verbs ("exchanged" is said with {@code exchange}); null when none does, or when the
     * customer never wrote the mention.
     *
     * @param customer the customer's messages, lower-cased
     * @param mention  what the customer mentioned, as the binding found it
     */
    public String saidWith(String customer, String mention) {
        if (verbs.isEmpty() || mention == null) {
            return null;
        }
        String bare = Mentions.bare(mention);
        int at = bare.isEmpty() ? -1 : customer.indexOf(bare);
        if (at < 0) {
            return null;
        }
        int start = sentenceStart(customer, at);
        String found = null;
        int i = start;
        while (i < at) {
            if (!isLetter(customer.charAt(i))) {
                i++;
                continue;
            }
            int end = i;
            while (end < at && isLetter(customer.charAt(end))) {
                end++;
            }
            String verb = verbOf(customer.substring(i, end));
            if (verb != null) {
                found = verb;
            }
            i = end;
        }
        return found;
    }

    private String verbOf(String word) {
        for (String v : verbs) {
            if (word.startsWith(v)) {
                return v;
            }
        }
        return null;
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static int sentenceStart(String text, int at) {
        for (int i = at - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '.' || c == '!' || c == '?') && i + 1 < text.length()
                    && Character.isWhitespace(text.charAt(i + 1))) {
                return i + 1;
            }
        }
        return 0;
    }
}
