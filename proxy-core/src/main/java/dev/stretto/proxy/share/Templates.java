package dev.stretto.proxy.share;

import java.util.function.Function;

/**
 * The pseudonym of a value in its normal form ({@link Values#normal}): its <em>template</em>,
 * drawn from the keyed hash of the kind, the normal form and the attempt (0 first, more when
 * that one was taken). A template keeps the shape of the value: for most kinds the same
 * length, letters for letters (lower case: each occurrence gets its own case back when it is
 * written, {@link Occurrences}), digits for digits and every other character as it was.
 */
final class Templates {

    private static final String CONSONANTS = "bcdfghjklmnpqrstvwxz";
    private static final String VOWELS = "aeiouy";
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final String HEX = "0123456789abcdef";

    private final Keyed keyed;

    Templates(Keyed keyed) {
        this.keyed = keyed;
    }

    /**
     * The template of a value.
     *
     * @param names the template of a word of a name, or null when it is none (an id made of
     *              name words keeps them as the names do)
     */
    String of(ValueKind kind, String normal, int attempt, Function<String, String> names) {
        Keyed.Draws d = keyed.draws("stretto-redact", kind.wireName(), normal, Integer.toString(attempt));
        return switch (kind) {
            case SECRET -> "<redacted-" + keyed.hex(attempt < 16 ? 8 : 12, "secret", normal, Integer.toString(attempt)) + ">";
            case EMAIL -> "user-" + keyed.hex(attempt < 16 ? 4 : 6, "email", normal, Integer.toString(attempt))
                    + "@example.invalid";
            case PHONE -> digitsKeepingFirst(normal, d);
            case CARD -> card(normal, d);
            case IBAN -> iban(normal, d);
            case IP -> ip(normal, d);
            case DATE -> date(normal, d);
            case ZIP -> classes(normal, d);
            case ADDRESS -> words(normal, attempt, true);
            case TEXT -> words(normal, attempt, false);
            case NAME -> name(normal, d);
            case PATH -> path(normal, d);
            case ID -> id(normal, d, names);
        };
    }

    private static String digitsKeepingFirst(String digits, Keyed.Draws d) {
        StringBuilder out = new StringBuilder(digits.length());
        for (int i = 0; i < digits.length(); i++) {
            out.append(i == 0 ? digits.charAt(0) : d.of(DIGITS));
        }
        return out.toString();
    }

    private static String card(String digits, Keyed.Draws d) {
        StringBuilder out = new StringBuilder(digits.length());
        out.append(digits.charAt(0));
        for (int i = 1; i < digits.length() - 1; i++) {
            out.append(d.of(DIGITS));
        }
        out.append(Values.luhnCheckDigit(out.toString()));
        return out.toString();
    }

    private static String iban(String normal, Keyed.Draws d) {
        String upper = normal.toUpperCase(java.util.Locale.ROOT);
        String country = upper.substring(0, 2);
        StringBuilder bban = new StringBuilder();
        for (int i = 4; i < upper.length(); i++) {
            char c = upper.charAt(i);
            bban.append(Values.isAsciiDigit(c) ? d.of(DIGITS) : Character.toUpperCase(d.of(LETTERS)));
        }
        return Values.fold(country + Values.ibanCheck(country, bban.toString()) + bban);
    }

    private static String ip(String normal, Keyed.Draws d) {
        if (Values.ipv4(normal) != null) {
            return "10." + d.below(256) + "." + d.below(256) + "." + (1 + d.below(254));
        }
        StringBuilder out = new StringBuilder("fd");
        out.append(d.of(HEX)).append(d.of(HEX));
        for (int g = 1; g < 8; g++) {
            out.append(':');
            out.append(Integer.toHexString(0x1000 + d.below(0xF000)));
        }
        return out.toString();
    }

    private static String date(String normal, Keyed.Draws d) {
        Values.DateText t = Values.DateText.parse(normal);
        if (t == null) {
            return classes(normal, d);
        }
        int year = 1930 + d.below(80);
        int month = 1 + d.below(12);
        int day = 1 + d.below(28);
        return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", year, month, day);
    }

    /** How a template is made of a value's runs of letters and of digits; every other character stays. */
    private interface Runs {
        /** The template of the letters from {@code start} to {@code end} of the value. */
        String letters(String word, int start, int end);

        /** The template of a run of digits. */
        String digits(String run);
    }

    private static String byRuns(String normal, Runs runs) {
        StringBuilder out = new StringBuilder(normal.length());
        int i = 0;
        while (i < normal.length()) {
            char c = normal.charAt(i);
            boolean letter = Character.isLetter(c);
            if (letter || Values.isAsciiDigit(c)) {
                int end = i;
                while (end < normal.length() && (letter ? Character.isLetter(normal.charAt(end))
                        : Values.isAsciiDigit(normal.charAt(end)))) {
                    end++;
                }
                String run = normal.substring(i, end);
                out.append(letter ? runs.letters(run, i, end) : runs.digits(run));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Letters for letters, digits for digits (a first digit 0 stays 0, another stays another). */
    private static String classes(String normal, Keyed.Draws d) {
        return byRuns(normal, new Runs() {
            @Override
            public String letters(String word, int start, int end) {
                return Templates.letters(word, d);
            }

            @Override
            public String digits(String run) {
                return digitRun(run, d);
            }
        });
    }

    /** Random digits, the first one 0 if it was and not 0 if it was not (a number stays a number). */
    private static String digitRun(String run, Keyed.Draws d) {
        StringBuilder out = new StringBuilder(run.length());
        for (int k = 0; k < run.length(); k++) {
            if (k == 0) {
                out.append(run.charAt(0) == '0' ? '0' : (char) ('1' + d.below(9)));
            } else {
                out.append(d.of(DIGITS));
            }
        }
        return out.toString();
    }

    private static String letters(String word, Keyed.Draws d) {
        StringBuilder out = new StringBuilder(word.length());
        for (int k = 0; k < word.length(); k++) {
            out.append(d.of(LETTERS));
        }
        return out.toString();
    }

    /**
     * A text word by word: each word and each number drawn from itself alone, so that a street
     * found as {@code 956 Maple Road} in one place and {@code 956 Maple Road, Apt 2C} in another
     * reads the same in both; the words of a street's type and unit ({@code Road}, {@code Apt})
     * stay when {@code keepAddressWords}. A later attempt draws every word again.
     */
    private String words(String normal, int attempt, boolean keepAddressWords) {
        String again = attempt == 0 ? "" : Integer.toString(attempt);
        return byRuns(normal, new Runs() {
            @Override
            public String letters(String word, int start, int end) {
                if (keepAddressWords && Values.ADDRESS_WORDS.contains(word)) {
                    return word;
                }
                return Templates.letters(word, keyed.draws("stretto-redact", "word", word, again));
            }

            @Override
            public String digits(String run) {
                return digitRun(run, keyed.draws("stretto-redact", "number", run, again));
            }
        });
    }

    /** Vowels for vowels and consonants for other letters: a made-up word that can be said. */
    private static String name(String normal, Keyed.Draws d) {
        StringBuilder out = new StringBuilder(normal.length());
        for (int i = 0; i < normal.length(); i++) {
            char c = normal.charAt(i);
            if (Character.isLetter(c)) {
                out.append(VOWELS.indexOf(Character.toLowerCase(stripAccent(c))) >= 0 ? d.of(VOWELS) : d.of(CONSONANTS));
            } else if (Values.isAsciiDigit(c)) {
                out.append(d.of(DIGITS));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static char stripAccent(char c) {
        String s = java.text.Normalizer.normalize(String.valueOf(c), java.text.Normalizer.Form.NFD);
        return s.isEmpty() ? c : s.charAt(0);
    }

    /** A path segment: its extension ({@code .txt}) kept, the rest letters for letters, digits for digits. */
    private static String path(String normal, Keyed.Draws d) {
        int dot = normal.lastIndexOf('.');
        if (dot > 0 && normal.length() - dot <= 6) {
            return classes(normal.substring(0, dot), d) + normal.substring(dot);
        }
        return classes(normal, d);
    }

    /**
     * An id: hexadecimal ids ({@code 9f86d081...}, uuids) stay hexadecimal; otherwise a type
     * prefix before the first digit is kept ({@code user_}, {@code credit_card_}, {@code #W}),
     * words of names are written as the names are, and every other letter and digit drawn.
     */
    private static String id(String normal, Keyed.Draws d, Function<String, String> names) {
        if (hex(normal)) {
            StringBuilder out = new StringBuilder(normal.length());
            for (int i = 0; i < normal.length(); i++) {
                char c = normal.charAt(i);
                out.append(Character.digit(c, 16) >= 0 ? (i == 0 && c == '0' ? '0' : d.of(HEX)) : c);
            }
            return out.toString();
        }
        int firstDigit = -1;
        for (int i = 0; i < normal.length() && firstDigit < 0; i++) {
            if (Values.isAsciiDigit(normal.charAt(i))) {
                firstDigit = i;
            }
        }
        int prefixEnd = firstDigit;
        return byRuns(normal, new Runs() {
            @Override
            public String letters(String word, int start, int end) {
                String asName = names == null ? null : names.apply(word);
                if (asName != null) {
                    return asName;
                }
                return prefixEnd > end ? word : Templates.letters(word, d);
            }

            @Override
            public String digits(String run) {
                return digitRun(run, d);
            }
        });
    }

    /** Six or more characters of hexadecimal digits (and dashes) with both a digit and a letter. */
    private static boolean hex(String normal) {
        int alnum = 0;
        boolean digit = false;
        boolean letter = false;
        for (int i = 0; i < normal.length(); i++) {
            char c = normal.charAt(i);
            if (Values.isAsciiDigit(c)) {
                digit = true;
                alnum++;
            } else if (c >= 'a' && c <= 'f') {
                letter = true;
                alnum++;
            } else if (c != '-') {
                return false;
            }
        }
        return alnum >= 6 && digit && letter;
    }
}
