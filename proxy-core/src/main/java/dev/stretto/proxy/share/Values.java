package dev.stretto.proxy.share;

import java.util.Set;

/**
 * What makes two texts one value: each kind's normal form, and the checks that a text is of a
 * kind at all. Letters are compared without case, one character at a time (so a text and its
 * folded form have the same length), and runs of white space count as one space; phone and
 * card numbers are their digits.
 */
final class Values {

    /** Values that say there is none: never taken for a personal value. */
    private static final Set<String> PLACEHOLDERS = Set.of("null", "none", "nil", "n/a", "na", "unknown",
            "undefined", "true", "false", "yes", "no", "empty", "-", "--", "*", "tbd", "redacted", "<redacted>");

    /** Words of a street address that stay as they are: its type and unit words. */
    static final Set<String> ADDRESS_WORDS = Set.of("street", "st", "avenue", "ave", "av", "road", "rd",
            "boulevard", "blvd", "lane", "ln", "drive", "dr", "court", "ct", "way", "place", "pl", "terrace",
            "ter", "circle", "cir", "parkway", "pkwy", "highway", "hwy", "square", "sq", "trail", "trl", "alley",
            "suite", "ste", "apt", "apartment", "unit", "floor", "fl", "building", "bldg", "room", "po", "box",
            "north", "south", "east", "west", "n", "s", "e", "w", "ne", "nw", "se", "sw");

    private Values() {
    }

    /** {@code c} without case: the one-character lower case of a letter (never a longer text). */
    static char fold(char c) {
        return Character.toLowerCase(c);
    }

    /** {@code s} with every character {@linkplain #fold(char) folded}: the same length. */
    static String fold(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            out.append(fold(s.charAt(i)));
        }
        return out.toString();
    }

    /** {@code s} folded, trimmed, each run of white space one space. */
    static String collapsed(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean space = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            out.append(fold(c));
        }
        return out.toString();
    }

    /** The normal form of a text of {@code kind}: texts with the same one are one value. */
    static String normal(ValueKind kind, String text) {
        return switch (kind) {
            case SECRET -> text.strip();
            case PHONE, CARD -> digits(text);
            case IBAN -> collapsed(text).replace(" ", "");
            case IP -> ipNormal(text.strip());
            case DATE -> {
                DateText d = DateText.parse(text.strip());
                yield d == null ? collapsed(text) : d.iso();
            }
            case EMAIL, ZIP, ADDRESS, NAME, PATH, ID, TEXT -> collapsed(text);
        };
    }

    /** Whether {@code text} says there is no value ({@code null}, {@code n/a}, ...). */
    static boolean placeholder(String text) {
        return PLACEHOLDERS.contains(collapsed(text));
    }

    static String digits(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                out.append(c);
            }
        }
        return out.toString();
    }

    static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** A letter or digit: what a value must not be glued to, to be found inside a text. */
    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c);
    }

    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    /** The check digit that makes {@code digits} followed by it Luhn-valid. */
    static char luhnCheckDigit(String digits) {
        for (char c = '0'; c <= '9'; c++) {
            if (luhn(digits + c)) {
                return c;
            }
        }
        throw new IllegalStateException();
    }

    /** Whether {@code compact} (no spaces, any case) is an IBAN whose check digits hold. */
    static boolean iban(String compact) {
        String s = compact.toUpperCase(java.util.Locale.ROOT);
        if (s.length() < 15 || s.length() > 34 || !Character.isLetter(s.charAt(0)) || !Character.isLetter(s.charAt(1))
                || !isAsciiDigit(s.charAt(2)) || !isAsciiDigit(s.charAt(3))) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(isAsciiDigit(c) || (c >= 'A' && c <= 'Z'))) {
                return false;
            }
        }
        return ibanRemainder(s.substring(4) + s.substring(0, 4)) == 1;
    }

    /** The IBAN's two check digits for an upper-case {@code country} and {@code bban}. */
    static String ibanCheck(String country, String bban) {
        int r = ibanRemainder(bban + country + "00");
        int check = 98 - r;
        return (check < 10 ? "0" : "") + check;
    }

    private static int ibanRemainder(String rearranged) {
        int r = 0;
        for (int i = 0; i < rearranged.length(); i++) {
            char c = rearranged.charAt(i);
            int v = isAsciiDigit(c) ? c - '0' : c - 'A' + 10;
            r = v >= 10 ? (r * 100 + v) % 97 : (r * 10 + v) % 97;
        }
        return r;
    }

    /** The four numbers of a dotted IPv4 address, or null. */
    static int[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int[] out = new int[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !digits(p).equals(p)) {
                return null;
            }
            out[i] = Integer.parseInt(p);
            if (out[i] > 255) {
                return null;
            }
        }
        return out;
    }

    /** Whether {@code s} is an IPv6 address with at least three groups written out. */
    static boolean ipv6(String s) {
        int doubleColon = s.indexOf("::");
        if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
            return false;
        }
        String[] groups = s.replace("::", ":x:").split(":", -1);
        int written = 0;
        boolean compressed = false;
        for (String g : groups) {
            if (g.equals("x")) {
                compressed = true;
                continue;
            }
            if (g.isEmpty()) {
                if (doubleColon < 0) {
                    return false;
                }
                continue;
            }
            if (g.length() > 4) {
                return false;
            }
            for (int i = 0; i < g.length(); i++) {
                if (Character.digit(g.charAt(i), 16) < 0) {
                    return false;
                }
            }
            written++;
        }
        return written >= 3 && (compressed ? written < 8 : written == 8);
    }

    /** Loopback, unspecified and broadcast addresses: no one's. */
    static boolean ipOfNoOne(String s) {
        int[] v4 = ipv4(s);
        if (v4 != null) {
            return v4[0] == 127 || v4[0] == 0 || (v4[0] == 255 && v4[1] == 255 && v4[2] == 255 && v4[3] == 255);
        }
        String f = fold(s);
        return f.equals("::1") || f.equals("::");
    }

    private static String ipNormal(String s) {
        int[] v4 = ipv4(s);
        if (v4 != null) {
            return v4[0] + "." + v4[1] + "." + v4[2] + "." + v4[3];
        }
        return fold(s);
    }

    /** Whether {@code s} is exactly one email address. */
    static boolean email(String s) {
        int at = s.indexOf('@');
        if (at <= 0 || at != s.lastIndexOf('@') || at == s.length() - 1) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (i != at && !(i < at ? isLocalChar(c) : isDomainChar(c))) {
                return false;
            }
        }
        String domain = s.substring(at + 1);
        int dot = domain.lastIndexOf('.');
        return dot > 0 && dot < domain.length() - 2 && !domain.startsWith("-") && !domain.contains("..")
                && allLetters(domain.substring(dot + 1));
    }

    static boolean isLocalChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isAsciiDigit(c) || c == '.' || c == '_'
                || c == '%' || c == '+' || c == '-';
    }

    static boolean isDomainChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isAsciiDigit(c) || c == '.' || c == '-';
    }

    private static boolean allLetters(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} reads as a person's name: letters, with spaces, dots, hyphens, apostrophes, commas. */
    static boolean nameLike(String s) {
        boolean letter = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isLetter(c)) {
                letter = true;
            } else if (!(Character.isWhitespace(c) || c == '.' || c == '-' || c == '\'' || c == '\u2019' || c == ',')) {
                return false;
            }
        }
        return letter;
    }

    /**
     * A date as written: its year, month and day, and where each stands, so that another date
     * can be written the same way. Knows {@code 1990-05-17}, {@code 1990/05/17}, {@code
     * 05/17/1990} (month first unless the first number is above 12), {@code 17.05.1990}, each
     * with or without leading zeros and with anything after it ({@code T00:00:00Z}).
     */
    record DateText(int year, int month, int day, String text, int[] starts, int[] lengths) {

        /** Fields by where they stand: 0 year, 1 month, 2 day. */
        static DateText parse(String s) {
            java.util.regex.Matcher m = SHAPE.matcher(s);
            if (!m.lookingAt()) {
                return null;
            }
            int[] starts = new int[3];
            int[] lengths = new int[3];
            int[] v = new int[3];
            String sep = m.group(2);
            int[] order;
            int a = Integer.parseInt(m.group(1));
            if (m.group(1).length() == 4) {
                order = new int[] {0, 1, 2};
            } else if (sep.equals(".") || a > 12) {
                order = new int[] {2, 1, 0};
            } else {
                order = new int[] {1, 2, 0};
            }
            if (m.group(1).length() != 4 && m.group(5).length() != 4) {
                return null;
            }
            if (!m.group(4).equals(sep)) {
                return null;
            }
            for (int g = 0; g < 3; g++) {
                int group = g == 0 ? 1 : g == 1 ? 3 : 5;
                starts[order[g]] = m.start(group);
                lengths[order[g]] = m.end(group) - m.start(group);
                v[order[g]] = Integer.parseInt(m.group(group));
            }
            if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31) {
                return null;
            }
            return new DateText(v[0], v[1], v[2], s, starts, lengths);
        }

        private static final java.util.regex.Pattern SHAPE =
                java.util.regex.Pattern.compile("(\\d{1,4})([-/.])(\\d{1,2})([-/.])(\\d{1,4})(?!\\d)");

        String iso() {
            return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", year, month, day);
        }

        /** This date's text with {@code y-m-d} put in its place, each field as wide as it was (at least). */
        String with(int y, int m, int d) {
            int[] values = {y, m, d};
            StringBuilder out = new StringBuilder(text);
            Integer[] byStart = {0, 1, 2};
            java.util.Arrays.sort(byStart, (p, q) -> Integer.compare(starts[q], starts[p]));
            for (int field : byStart) {
                String v = Integer.toString(values[field]);
                while (v.length() < lengths[field]) {
                    v = "0" + v;
                }
                out.replace(starts[field], starts[field] + lengths[field], v);
            }
            return out.toString();
        }
    }
}
