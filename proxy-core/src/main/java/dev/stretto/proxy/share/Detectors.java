package dev.stretto.proxy.share;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds personal values in free text by their form: email addresses, payment card numbers,
 * IBANs, phone numbers, IP addresses, street addresses, credentials (tokens of known forms,
 * {@code Bearer} tokens, passwords in URLs and credential-named query parameters) and the
 * patterns of a rules file. Every search is linear in the text: a line of many megabytes
 * costs its length, whatever it holds.
 */
final class Detectors {

    /** A value found: its kind and where it stands. */
    record Found(ValueKind kind, int start, int end) {
    }

    /** A pattern of a rules file. */
    record Rule(ValueKind kind, Pattern pattern) {
    }

    private static final Pattern IPV4 = Pattern.compile(
            "(?<![0-9.])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
                    + "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?![0-9]|\\.[0-9])");
    private static final Pattern IPV6 = Pattern.compile("(?<![0-9A-Za-z:.])[0-9A-Fa-f:]{6,39}(?![0-9A-Za-z:])");
    private static final Pattern IBAN = Pattern.compile(
            "(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])");
    private static final String STREET_TYPES = "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court"
            + "|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq|Trail|Trl|Alley";
    private static final Pattern STREET = Pattern.compile(
            "(?<![\\p{L}\\p{N}])[0-9]{1,6}[A-Za-z]?(?: [NSEW]\\.?)? (?:\\p{Lu}[\\p{L}'-]{0,30} ){1,3}(?:" + STREET_TYPES
                    + ")\\b\\.?(?:,? (?:Apt|Apartment|Suite|Ste|Unit|#) ?[A-Za-z0-9-]{1,8}\\b)?");
    private static final Pattern BEARER = Pattern.compile("(?i)(?<![A-Za-z0-9])bearer\\s+([A-Za-z0-9._~+/=-]{8,})");
    private static final Pattern URL_PASSWORD = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]{0,30}://([^/?#@\\s:]{1,200}):([^/?#@\\s]{1,200})@");
    private static final Pattern QUERY_PAIR = Pattern.compile("[?&;]([A-Za-z_][A-Za-z0-9_.-]{0,40})=([^&#\\s\"']{4,})");

    private final List<Rule> rules;

    Detectors(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Every value in {@code text}, in order, none overlapping (the one found first, by kind, wins). */
    List<Found> find(String text) {
        List<Found> all = new ArrayList<>();
        // What the text holds at all: a pattern that needs what it lacks is not run.
        boolean digit = false;
        boolean upper = false;
        boolean colon = false;
        boolean dot = false;
        for (int i = 0, n = text.length(); i < n && !(digit && upper && colon && dot); i++) {
            char c = text.charAt(i);
            digit |= c >= '0' && c <= '9';
            upper |= c >= 'A' && c <= 'Z';
            colon |= c == ':';
            dot |= c == '.';
        }
        secrets(text, all);
        emails(text, all);
        if (digit) {
            if (upper) {
                regex(IBAN, ValueKind.IBAN, text, all, Detectors::ibanOk);
            }
            numbers(text, all);
            if (dot) {
                regex(IPV4, ValueKind.IP, text, all, s -> !Values.ipOfNoOne(s));
            }
            if (colon) {
                regex(IPV6, ValueKind.IP, text, all, s -> Values.ipv6(s) && !Values.ipOfNoOne(s));
            }
            if (upper) {
                regex(STREET, ValueKind.ADDRESS, text, all, s -> true);
            }
        }
        for (Rule r : rules) {
            regex(r.pattern(), r.kind(), text, all, s -> !s.isBlank());
        }
        return withoutOverlaps(all);
    }

    private static boolean ibanOk(String s) {
        return Values.iban(s.replace(" ", ""));
    }

    private interface Check {
        boolean ok(String s);
    }

    private static void regex(Pattern p, ValueKind kind, String text, List<Found> out, Check check) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            if (m.end() > m.start() && check.ok(m.group())) {
                out.add(new Found(kind, m.start(), m.end()));
            }
        }
    }

    private static void secrets(String text, List<Found> out) {
        int from = 0;
        for (String token : SecretRules.tokensIn(text)) {
            int at = text.indexOf(token, from);
            if (at >= 0) {
                out.add(new Found(ValueKind.SECRET, at, at + token.length()));
                from = at + token.length();
            }
        }
        if (text.length() >= 8 && (text.contains("earer") || text.contains("EARER"))) {
            Matcher m = BEARER.matcher(text);
            while (m.find()) {
                out.add(new Found(ValueKind.SECRET, m.start(1), m.end(1)));
            }
        }
        if (text.contains("://")) {
            Matcher m = URL_PASSWORD.matcher(text);
            while (m.find()) {
                out.add(new Found(ValueKind.SECRET, m.start(2), m.end(2)));
            }
        }
        if (text.indexOf('=') >= 0) {
            Matcher m = QUERY_PAIR.matcher(text);
            while (m.find()) {
                if (SecretRules.namesSecret(m.group(1))) {
                    out.add(new Found(ValueKind.SECRET, m.start(2), m.end(2)));
                }
            }
        }
    }

    /** Email addresses: found from each {@code @} outwards, so a text of letters costs its length once. */
    private static void emails(String text, List<Found> out) {
        int at = text.indexOf('@');
        int lastEnd = 0;
        while (at >= 0) {
            int start = at;
            while (start > lastEnd && at - start < 64 && Values.isLocalChar(text.charAt(start - 1))) {
                start--;
            }
            while (start < at && text.charAt(start) == '.') {
                start++;
            }
            int end = at + 1;
            while (end < text.length() && end - at < 255 && Values.isDomainChar(text.charAt(end))) {
                end++;
            }
            while (end > at + 1 && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == '-')) {
                end--;
            }
            if (start < at && end > at + 1 && Values.email(text.substring(start, end))) {
                out.add(new Found(ValueKind.EMAIL, start, end));
                lastEnd = end;
            }
            at = text.indexOf('@', Math.max(at + 1, end));
        }
    }

    /**
     * Card and phone numbers: each run of digits with single separators between them (space,
     * dash, dot, parentheses, a leading {@code +}) is split into its groups, and the longest
     * windows of groups that read as a card (13 to 19 digits, Luhn-valid, in groups of four or
     * with a card's first digits) or a phone (see {@link #phone}) are taken.
     */
    private static void numbers(String text, List<Found> out) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            boolean opens = Values.isAsciiDigit(c) || ((c == '+' || c == '(') && i + 1 < n
                    && Values.isAsciiDigit(text.charAt(i + 1)));
            if (!opens || (i > 0 && (Values.isWordChar(text.charAt(i - 1)) || text.charAt(i - 1) == '.'))) {
                i++;
                continue;
            }
            // The run: groups of digits, each joined to the next by one separator.
            List<int[]> groups = new ArrayList<>();
            int j = i;
            if (c == '+' || c == '(') {
                j++;
            }
            while (j < n) {
                int g = j;
                while (j < n && Values.isAsciiDigit(text.charAt(j))) {
                    j++;
                }
                if (j == g) {
                    break;
                }
                groups.add(new int[] {g, j});
                if (j < n && text.charAt(j) == ')') {
                    j++;
                }
                if (j + 1 < n && " -.".indexOf(text.charAt(j)) >= 0 && (Values.isAsciiDigit(text.charAt(j + 1))
                        || text.charAt(j + 1) == '(')) {
                    j += text.charAt(j + 1) == '(' ? 2 : 1;
                } else {
                    break;
                }
            }
            int runEnd = groups.isEmpty() ? i + 1 : groups.getLast()[1];
            if (runEnd < n && text.charAt(runEnd) == ')') {
                runEnd++;
            }
            boolean gluedAfter = runEnd < n && Character.isLetter(text.charAt(runEnd));
            if (!groups.isEmpty() && !gluedAfter) {
                windows(text, i, groups, out);
            }
            i = Math.max(runEnd, i + 1);
        }
    }

    private static void windows(String text, int runStart, List<int[]> groups, List<Found> out) {
        int g = 0;
        while (g < groups.size()) {
            Found best = null;
            int bestLast = -1;
            int digits = 0;
            for (int last = g; last < groups.size(); last++) {
                int length = groups.get(last)[1] - groups.get(last)[0];
                digits += length;
                // No card or phone has more digits, or a group of one digit after its first.
                if (digits > 19 || (last > g && length < 2)) {
                    break;
                }
                if (digits < 8) {
                    continue;
                }
                int start = g == 0 ? runStart : groups.get(g)[0];
                int end = groups.get(last)[1];
                if (end < text.length() && text.charAt(end) == ')' && text.substring(start, end).indexOf('(') >= 0) {
                    end++;
                }
                String s = text.substring(start, end);
                ValueKind kind = card(s) ? ValueKind.CARD : phone(s) ? ValueKind.PHONE : null;
                if (kind != null) {
                    best = new Found(kind, start, end);
                    bestLast = last;
                }
            }
            if (best != null) {
                out.add(best);
                g = bestLast + 1;
            } else {
                g++;
            }
        }
    }

    /** 13 to 19 digits, Luhn-valid, written in groups of four (Amex: 4-6-5) or starting as a card does. */
    static boolean card(String s) {
        String d = Values.digits(s);
        if (d.length() < 13 || d.length() > 19 || !Values.luhn(d) || s.indexOf('(') >= 0 || s.indexOf('+') >= 0
                || s.indexOf('.') >= 0) {
            return false;
        }
        if (d.equals(s)) {
            return d.startsWith("4") && (d.length() == 13 || d.length() == 16 || d.length() == 19)
                    || d.matches("5[1-5].{14}|2[2-7].{14}|3[47].{13}|6(?:011|5..).{12}");
        }
        return s.matches("\\d{4}([ -])\\d{4}\\1\\d{4}\\1\\d{1,7}|\\d{4}([ -])\\d{6}\\2\\d{5}");
    }

    /**
     * A phone number: 8 to 15 digits after a {@code +}; or 10 to 15 digits with an area code
     * in parentheses; or 10 or 11 digits as 3-3-4 (a leading 1 allowed); or 10 to 15 digits
     * that start with a trunk 0, in groups of 2 to 4 with one kind of separator ({@code 020
     * 7946 0958}, {@code 01 23 45 67 89}).
     */
    static boolean phone(String s) {
        String d = Values.digits(s);
        if (d.length() > 15) {
            return false;
        }
        if (s.startsWith("+")) {
            return d.length() >= 8;
        }
        if (d.length() < 10) {
            return false;
        }
        if (s.indexOf('(') >= 0) {
            return true;
        }
        if (s.matches("(?:1[ .-]?)?\\d{3}([ .-])\\d{3}\\1\\d{4}")) {
            return true;
        }
        return s.matches("0\\d{1,4}(?: \\d{2,4}){2,6}|0\\d{1,3}(?:\\.\\d{2,4}){3,6}|0\\d{1,3}(?:-\\d{2,4}){2,6}");
    }

    private static List<Found> withoutOverlaps(List<Found> all) {
        // The order of finding is the order of precedence: secrets, emails, numbers, ...
        java.util.TreeMap<Integer, Found> kept = new java.util.TreeMap<>();
        for (Found f : all) {
            java.util.Map.Entry<Integer, Found> before = kept.floorEntry(f.start());
            java.util.Map.Entry<Integer, Found> after = kept.ceilingEntry(f.start());
            boolean overlaps = (before != null && before.getValue().end() > f.start())
                    || (after != null && after.getKey() < f.end());
            if (!overlaps) {
                kept.put(f.start(), f);
            }
        }
        return new ArrayList<>(kept.values());
    }
}
