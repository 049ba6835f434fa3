package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first pass: finds every personal value in the run's files and puts it in the
 * dictionary, by key (a value under {@code email}, {@code first_name}, {@code user_id}, ...),
 * by a rules file's pointer, and by its form in any text (emails, cards, phones, ...).
 */
final class Collector extends Pass {

    /** {@code "key": "value"} in text that is not whole JSON (a raw line, a cut-off record). */
    private static final Pattern KEY_VALUE = Pattern.compile(
            "\"([A-Za-z][A-Za-z0-9_ .-]{0,40})\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.){1,512})\"");

    final Dictionary dictionary;
    private final Detectors detectors;

    Collector(RedactionRules rules, Dictionary dictionary) {
        super(rules);
        this.dictionary = dictionary;
        this.detectors = new Detectors(rules.detectorRules());
        for (String v : rules.keptValues()) {
            dictionary.keep(v);
        }
    }

    @Override
    public String string(String text, Zone zone, JsonNode holder) {
        switch (zone) {
            case Zone.Data d -> value(text, d, holder);
            case Zone.TaskId t -> text(text, Zone.Data.plain("task_id"));
            default -> {
                // Kept zones are skipped by the walk; an oracle key holds nothing to find.
            }
        }
        return null;
    }

    private void value(String text, Zone.Data d, JsonNode holder) {
        if (rules.keepsField(d.key())) {
            dictionary.keep(text);
            return;
        }
        ValueKind kind = kindAt(d, holder);
        if (kind != null && take(kind, text)) {
            return;
        }
        text(text, d);
    }

    @Override
    public String number(String text, Zone.Data d, JsonNode holder) {
        if (rules.keepsField(d.key())) {
            dictionary.keep(text);
            return null;
        }
        ValueKind kind = kindAt(d, holder);
        if (kind != null && numeric(kind) && digitsOnly(text)) {
            take(kind, text);
        }
        return null;
    }

    @Override
    public String key(String key, Zone.Data objectZone, JsonNode object) {
        if (PersonalKeys.membersAreIds(objectZone.key()) && !rules.keepsField(objectZone.key())) {
            dictionary.add(ValueKind.ID, key);
        }
        return null;
    }

    @Override
    String gap(String text, Zone.Data d) {
        dictionary.sawWords(text);
        for (Detectors.Found f : detectors.find(text)) {
            dictionary.add(f.kind(), text.substring(f.start(), f.end()));
        }
        if (text.indexOf('"') >= 0 && text.indexOf(':') >= 0) {
            Matcher m = KEY_VALUE.matcher(text);
            while (m.find()) {
                String value;
                try {
                    value = CanonicalJson.parse("\"" + m.group(2) + "\"").textValue();
                } catch (IllegalArgumentException notAString) {
                    continue;
                }
                if (rules.keepsField(m.group(1))) {
                    dictionary.keep(value);
                    continue;
                }
                ValueKind kind = keys.kindOf(m.group(1), null, null);
                if (kind != null) {
                    take(kind, value);
                }
            }
        }
        return text;
    }

    /** Takes {@code text} as a value of {@code kind} if it is one; false when it is not (then it is read as text). */
    boolean take(ValueKind kind, String text) {
        String s = text.strip();
        if (s.isEmpty() || Values.placeholder(s)) {
            return true;
        }
        String digits = Values.digits(s);
        boolean ok = switch (kind) {
            case SECRET -> s.length() >= 4;
            case EMAIL -> Values.email(s);
            case PHONE -> digits.length() >= 7 && digits.length() <= 15 && s.matches("[+0-9 ().\\-/]+");
            case CARD -> digits.length() >= 12 && digits.length() <= 19 && s.matches("[0-9 \\-]+");
            case IBAN -> Values.iban(s.replace(" ", ""));
            case IP -> (Values.ipv4(s) != null || Values.ipv6(s)) && !Values.ipOfNoOne(s);
            case DATE -> Values.DateText.parse(s) != null;
            case ZIP -> s.length() >= 3 && s.length() <= 10 && !digits.isEmpty() && s.matches("[A-Za-z0-9 \\-]+");
            case ADDRESS, TEXT -> s.length() >= 3 && s.chars().anyMatch(Character::isLetterOrDigit);
            case NAME -> Values.nameLike(s);
            case PATH, ID -> s.length() >= 2 && s.length() <= 256;
        };
        if (!ok) {
            return false;
        }
        if (kind == ValueKind.NAME) {
            for (String word : s.split("[^\\p{L}]+")) {
                if (word.length() >= 2) {
                    dictionary.add(ValueKind.NAME, word);
                }
            }
        } else {
            dictionary.add(kind, s);
        }
        dictionary.sawWords(s);
        return true;
    }
}
