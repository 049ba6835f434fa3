package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The second pass: writes each file again with every value the first pass found replaced by
 * its pseudonym, counting the replacements of the file at hand.
 */
final class Rewriter extends Pass {

    private final Pseudonyms pseudonyms;
    private final Keyed keyed;
    private final Map<String, String> sessionIds;
    Pseudonyms.Tally tally = new Pseudonyms.Tally();

    /** @param sessionIds old session id to new, for the start times that are shifted (else empty) */
    Rewriter(RedactionRules rules, Pseudonyms pseudonyms, Keyed keyed, Map<String, String> sessionIds) {
        super(rules);
        this.pseudonyms = pseudonyms;
        this.keyed = keyed;
        this.sessionIds = sessionIds;
    }

    @Override
    public String string(String text, Zone zone, JsonNode holder) {
        return switch (zone) {
            case Zone.Data d -> rules.keepsField(d.key()) ? null : changed(text, text(text, d));
            case Zone.OracleKey k -> text.matches("[0-9a-f]{64}") ? oracleKey(text) : null;
            case Zone.TaskId t -> sessionIds.containsKey(text) ? sessionIds.get(text)
                    : changed(text, text(text, Zone.Data.plain("task_id")));
            default -> null;
        };
    }

    private String oracleKey(String key) {
        tally.add(ValueKind.ID);
        return keyed.hex(64, "oracle-key", key);
    }

    private static String changed(String before, String after) {
        return after == before ? null : after;
    }

    @Override
    public String number(String text, Zone.Data d, JsonNode holder) {
        if (rules.keepsField(d.key()) || !digitsOnly(text)) {
            return null;
        }
        ValueKind kind = kindAt(d, holder);
        if (kind == null || !numeric(kind)) {
            return null;
        }
        String r = pseudonyms.whole(text, tally);
        // A number stays a number: digits, no leading zero.
        return r != null && digitsOnly(r) && (r.length() == 1 || r.charAt(0) != '0') ? r : null;
    }

    @Override
    public String key(String key, Zone.Data objectZone, JsonNode object) {
        return rules.keepsField(objectZone.key()) ? null : pseudonyms.whole(key, tally);
    }

    @Override
    String gap(String text, Zone.Data d) {
        return pseudonyms.replaceIn(text, tally);
    }

    /** A text outside JSON (a raw line, a command's argument): every value in it replaced. */
    String plainText(String text) {
        return text(text, Zone.Data.plain(null));
    }
}
