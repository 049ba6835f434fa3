package dev.stretto.proxy.guard;

import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The word-list check behind {@code retail.confirmed} and {@code airline.confirmed}: does the
 * customer's last message say yes? It cannot tell a confirmation from a request ("yes, and
 * also..."), which is why those rules are only logged. Needs {@code --context}: without the
 * conversation the customer has said nothing.
 */
final class Confirmation {

    /** Confirming words, matched as whole words. */
    static final Set<String> WORDS = Set.of("yes", "yeah", "yep", "yup", "confirm", "sure", "okay", "ok", "correct",
            "fine");

    /** Confirming phrases, matched anywhere in the message's words joined by single spaces. */
    static final List<String> PHRASES = List.of("go ahead", "proceed", "please do", "do it", "that's right",
            "sounds good", "absolutely", "please cancel", "please process", "please go", "let's do", "i agree");

    private Confirmation() {
    }

    /** The rule's check. */
    static Verdict check(ToolCall call, Facts facts) {
        Optional<String> last = facts.lastCustomerText();
        if (last.isEmpty()) {
            return Verdict.fail("the customer has not confirmed anything yet");
        }
        return confirms(last.get()) ? Verdict.pass()
                : Verdict.fail("the customer's last message is not an explicit confirmation");
    }

    /** Whether a (lowercased) message holds a confirming word or phrase. */
    static boolean confirms(String message) {
        List<String> words = words(message);
        for (String w : words) {
            if (WORDS.contains(w)) {
                return true;
            }
        }
        String joined = String.join(" ", words);
        for (String p : PHRASES) {
            if (joined.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** The message's words: runs of letters, digits and apostrophes (typographic ones made plain). */
    static List<String> words(String message) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < message.length(); ) {
            int c = message.codePointAt(i);
            i += Character.charCount(c);
            if (c == '\u2019' || c == '\u2018') {
                c = '\'';
            }
            if (Character.isLetterOrDigit(c) || c == '\'') {
                word.appendCodePoint(Character.toLowerCase(c));
            } else if (!word.isEmpty()) {
                words.add(word.toString());
                word.setLength(0);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }
}
