package dev.stretto.proxy.redact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.redact.Secrets;
import dev.stretto.proxy.redact.UrlRedactor;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@code sk-} keys (OpenAI's, Anthropic's, OpenRouter's and every service that copied the form)
 * are redacted whatever their length, in a server command and in an upstream URL, and words that
 * merely start with {@code sk-} are not. Generated: hundreds of keys and words in every place an
 * argument or a URL may hold them.
 */
class SkKeyShapesTest {
    private static final String R = CommandRedactor.REDACTED;
    private static final String BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final List<String> PREFIXES = List.of("sk-", "sk-proj-", "sk-ant-api03-", "sk-svcacct-",
            "sk-or-v1-", "sk-admin-");

    /**
     * A key as a generator makes one: a known prefix, then a random body of letters of both
     * cases and digits (with the odd {@code -} or {@code _}), 4 to 64 long. A body that came out
     * looking like a word is drawn again: under 16 characters, one without a digit and with
     * letters of one case only, or shorter than 8 without a digit ({@code sk-Latn}, {@code
     * sk-learn} are words).
     */
    private static String key(SplittableRandom random) {
        while (true) {
            int length = random.nextInt(4, 65);
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < length; i++) {
                body.append(i > 0 && i < length - 1 && random.nextInt(20) == 0 ? "-_".charAt(random.nextInt(2))
                        : BASE62.charAt(random.nextInt(BASE62.length())));
            }
            String b = body.toString();
            boolean digit = b.chars().anyMatch(Character::isDigit);
            boolean bothCases = !b.equals(b.toLowerCase()) && !b.equals(b.toUpperCase());
            boolean word = length < 16 && !digit && (!bothCases || length < 8);
            if (!word) {
                return PREFIXES.get(random.nextInt(PREFIXES.size())) + b;
            }
        }
    }

    /** Words that start with {@code sk-} or hold it, and are no key: they must stay as they are. */
    private static List<String> words(SplittableRandom random) {
        List<String> words = new ArrayList<>(List.of("sk", "sk-", "sk-SK", "sk-CZ", "sk-Latn", "sk-8", "sk-learn",
                "sk-video", "sk-image", "sk-learn-extra", "desk-top", "task-runner", "risk-free", "kiosk-mode",
                "whisk-away", "task-" + "x".repeat(30), "mask-" + BASE62));
        for (int i = 0; i < 300; i++) {
            int length = random.nextInt(1, 16);
            StringBuilder word = new StringBuilder();
            for (int j = 0; j < length; j++) {
                word.append(j > 0 && j < length - 1 && random.nextInt(6) == 0 ? '-'
                        : LOWER.charAt(random.nextInt(LOWER.length())));
            }
            words.add("sk-" + word);
            words.add("sk-" + word.toString().toUpperCase());
        }
        return words;
    }

    /** The places a command's argument may hold a key or a word {@code x}. */
    private static List<Function<String, String>> arguments() {
        return List.of(x -> x, x -> "--with-" + x, x -> "--lang=" + x, x -> "x " + x + " y",
                x -> "{\"k\":\"" + x + "\"}", x -> "https://h/mcp/" + x + "/tools", x -> "https://h/mcp?lang=" + x + "&n=1");
    }

    @Test
    void everySkKeyIsRedactedInACommandWhateverItsLength() {
        SplittableRandom random = new SplittableRandom(17);
        List<String> missed = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String key = key(random);
            for (Function<String, String> place : arguments()) {
                String given = place.apply(key);
                String logged = CommandRedactor.redact(List.of("srv", given)).get(1);
                if (!logged.equals(place.apply(R)) || !CommandRedactor.looksLikeToken(given)) {
                    missed.add(given + " -> " + logged);
                }
            }
        }
        assertEquals(List.of(), firstOf(missed));
    }

    @Test
    void wordsThatStartWithSkStayAsTheyAre() {
        List<String> changed = new ArrayList<>();
        for (String word : words(new SplittableRandom(23))) {
            for (Function<String, String> place : arguments()) {
                String given = place.apply(word);
                List<String> logged = CommandRedactor.redact(List.of("srv", given));
                if (!logged.equals(List.of("srv", given)) || CommandRedactor.looksLikeToken(given)) {
                    changed.add(given + " -> " + logged.get(1));
                }
            }
        }
        assertEquals(List.of(), firstOf(changed));
    }

    @Test
    void anUpstreamUrlHoldsNoSkKeyInItsPathOrQueryAndKeepsItsWords() {
        SplittableRandom random = new SplittableRandom(29);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String key = key(random);
            for (String url : List.of("https://h/mcp/" + key + "/tools", "https://h/mcp?lang=" + key + "&n=1")) {
                String shown = UrlRedactor.redact(URI.create(url));
                if (shown.contains(key) || !shown.contains(R)) {
                    wrong.add(url + " -> " + shown);
                }
            }
        }
        for (String word : words(new SplittableRandom(31))) {
            String url = "https://h/docs/" + word + "?lang=" + word;
            if (!UrlRedactor.redact(URI.create(url)).equals(url)) {
                wrong.add(url + " -> " + UrlRedactor.redact(URI.create(url)));
            }
        }
        assertEquals(List.of(), firstOf(wrong));
        // A server may echo what it was sent: the log is scrubbed of the URL's keys too.
        assertEquals(List.of("sk-abc123", "sk-proj-Ab3defgh"), Secrets.sentTo(
                URI.create("https://h/mcp/sk-abc123/x?lang=sk-proj-Ab3defgh"), List.of()).values().stream()
                .filter(v -> v.startsWith("sk-")).distinct().sorted().toList());
    }

    /** The first ten of {@code failures}, and how many there are in all. */
    private static List<String> firstOf(List<String> failures) {
        if (failures.size() <= 10) {
            return failures;
        }
        List<String> out = new ArrayList<>(failures.subList(0, 10));
        out.add("and " + (failures.size() - 10) + " more");
        return out;
    }
}
