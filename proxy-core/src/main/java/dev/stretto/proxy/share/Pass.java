package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;

/**
 * What both passes over a run's files do alike: the kind that a pointer or a key gives a
 * value, and the way into a text, which is either JSON as a whole (a tool result's text:
 * walked as a document of the same tool) or free text, in which JSON fragments are walked as
 * documents and the rest between them is looked at as text ({@link #gap}). The first pass
 * ({@link Collector}) finds values; the second ({@link Rewriter}) replaces them. Because both
 * go into every text the same way, every value the first finds, the second meets.
 */
abstract class Pass implements JsonWalk.Visitor {

    final RedactionRules rules;
    final PersonalKeys keys;

    Pass(RedactionRules rules) {
        this.rules = rules;
        this.keys = new PersonalKeys(rules.keys());
    }

    /** The kind a rules file's pointer or a personal key gives the value here, or null. */
    ValueKind kindAt(Zone.Data d, JsonNode holder) {
        ValueKind byPointer = rules.pointerKind(d.tool(), d.root(), d.path());
        return byPointer != null ? byPointer : keys.kindOf(d.key(), d.parentKey(), holder);
    }

    /** Free text between fragments: what replaces it (or the text itself). */
    abstract String gap(String text, Zone.Data d);

    /** A text in zone {@code d}: what replaces it, or the same instance when nothing does. */
    String text(String text, Zone.Data d) {
        if (Fragments.wholeJson(text)) {
            try {
                // A JSON document in a text: walked on from where the text stands, pointers and keys and all.
                return JsonWalk.walk(text, d, this);
            } catch (IOException notJson) {
                // Read as text below.
            }
        }
        List<Fragments.Fragment> fragments = Fragments.find(text);
        if (fragments.isEmpty()) {
            return gap(text, d);
        }
        StringBuilder out = new StringBuilder(text.length());
        boolean changed = false;
        int copied = 0;
        for (Fragments.Fragment f : fragments) {
            changed |= append(out, text.substring(copied, f.start()), d);
            String fragment = text.substring(f.start(), f.end());
            String r;
            try {
                r = JsonWalk.walk(fragment, Zone.Data.plain(null), this);
            } catch (IOException notJson) {
                r = gap(fragment, d);
            }
            changed |= r != fragment;
            out.append(r);
            copied = f.end();
        }
        changed |= append(out, text.substring(copied), d);
        return changed ? out.toString() : text;
    }

    private boolean append(StringBuilder out, String part, Zone.Data d) {
        if (part.isEmpty()) {
            return false;
        }
        String r = gap(part, d);
        out.append(r);
        return r != part;
    }

    static boolean digitsOnly(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Values.isAsciiDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean numeric(ValueKind kind) {
        return kind == ValueKind.PHONE || kind == ValueKind.ZIP || kind == ValueKind.ID || kind == ValueKind.CARD;
    }
}
