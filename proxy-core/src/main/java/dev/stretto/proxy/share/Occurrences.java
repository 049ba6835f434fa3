package dev.stretto.proxy.share;

/**
 * Writes a value's template ({@link Templates}) in the place of one occurrence of the value,
 * the way that occurrence was written: its case letter by letter, its white space, the
 * separators of a phone or card number, the format of a date. So texts that were one value
 * but for case or spacing are still that after, and texts that differed still differ.
 */
final class Occurrences {

    private Occurrences() {
    }

    static String render(ValueKind kind, String template, String occurrence) {
        String out = switch (kind) {
            case EMAIL, SECRET, IP -> template;
            case PHONE, CARD -> digitsInPlace(template, occurrence);
            case DATE -> date(template, occurrence);
            case IBAN, ZIP, ADDRESS, NAME, PATH, ID, TEXT -> cased(template, occurrence);
        };
        return out == null ? template : out;
    }

    private static String digitsInPlace(String digits, String occurrence) {
        StringBuilder out = new StringBuilder(occurrence.length());
        int j = 0;
        for (int i = 0; i < occurrence.length(); i++) {
            char c = occurrence.charAt(i);
            if (Values.isAsciiDigit(c)) {
                if (j == digits.length()) {
                    return null;
                }
                out.append(digits.charAt(j++));
            } else {
                out.append(c);
            }
        }
        return j == digits.length() ? out.toString() : null;
    }

    private static String date(String iso, String occurrence) {
        Values.DateText t = Values.DateText.parse(occurrence.strip());
        Values.DateText p = Values.DateText.parse(iso);
        if (t == null || p == null) {
            return cased(iso, occurrence);
        }
        String lead = occurrence.substring(0, occurrence.indexOf(occurrence.strip()));
        String trail = occurrence.substring(lead.length() + occurrence.strip().length());
        return lead + t.with(p.year(), p.month(), p.day()) + trail;
    }

    /**
     * The template over the occurrence's characters: each run of white space of the occurrence
     * stands for the template's one space (or none, in an IBAN written in groups), and a
     * letter is upper case where the occurrence's was.
     */
    private static String cased(String template, String occurrence) {
        StringBuilder out = new StringBuilder(occurrence.length());
        int j = 0;
        int i = 0;
        while (i < occurrence.length()) {
            char c = occurrence.charAt(i);
            if (Character.isWhitespace(c)) {
                int end = i;
                while (end < occurrence.length() && Character.isWhitespace(occurrence.charAt(end))) {
                    end++;
                }
                out.append(occurrence, i, end);
                if (j < template.length() && template.charAt(j) == ' ') {
                    j++;
                }
                i = end;
                continue;
            }
            if (j == template.length()) {
                return null;
            }
            char t = template.charAt(j++);
            out.append(Character.isUpperCase(c) ? Character.toUpperCase(t) : t);
            i++;
        }
        return j == template.length() ? out.toString() : null;
    }
}
