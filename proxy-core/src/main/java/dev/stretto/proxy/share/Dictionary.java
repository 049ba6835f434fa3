package dev.stretto.proxy.share;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every personal value of a run, as the first pass over its files finds them: each with the
 * texts it was written as (its literals), and what must not be taken for one (kept values,
 * tool names). {@link #assign} then gives each value its template, unique in the run, and
 * returns what the second pass replaces with.
 */
final class Dictionary {

    /** How often a template may be drawn again before one already an original value is allowed. */
    private static final int STRICT_ATTEMPTS = 64;
    /** How often before the value's template is made unique by a suffix. */
    private static final int MAX_ATTEMPTS = 2000;
    /** The words remembered, to draw no template that is already a word of the files. */
    private static final int MAX_WORDS = 2_000_000;

    private final Map<String, PersonalValue> literals = new HashMap<>();
    private final Map<String, PersonalValue> secrets = new HashMap<>();
    private final Set<String> kept = new HashSet<>();
    private final Set<String> words = new HashSet<>();
    private final Set<String> tools = new HashSet<>();

    /** Takes {@code occurrence} (trimmed here) as a value of {@code kind}; too short or a placeholder, not. */
    void add(ValueKind kind, String occurrence) {
        String text = occurrence.strip();
        if (text.isEmpty() || Values.placeholder(text)) {
            return;
        }
        if (kind == ValueKind.SECRET) {
            if (text.length() >= 4 && !text.startsWith("<redacted")) {
                secrets.putIfAbsent(text, new PersonalValue(kind, text));
            }
            return;
        }
        String literal = Values.collapsed(text);
        if (literal.length() < 2) {
            return;
        }
        PersonalValue v = new PersonalValue(kind, Values.normal(kind, text));
        if (v.normal().isEmpty()) {
            return;
        }
        literals.merge(literal, v, (a, b) -> a.kind().ordinal() <= b.kind().ordinal() ? a : b);
    }

    /** Keeps {@code text} as it is everywhere: the whole text, and each of its words as a name. */
    void keep(String text) {
        String c = Values.collapsed(text);
        if (c.isEmpty()) {
            return;
        }
        kept.add(c);
        for (String w : c.split("[^\\p{L}\\p{N}_]+")) {
            if (!w.isEmpty()) {
                kept.add(w);
            }
        }
    }

    /** A tool's name: never a value, and never rewritten inside a text. */
    void tool(String name) {
        if (name != null && !name.isEmpty()) {
            tools.add(name);
        }
    }

    Set<String> tools() {
        return tools;
    }

    /** Remembers the words of {@code text}, so that no template is drawn that is one of them. */
    void sawWords(String text) {
        if (words.size() >= MAX_WORDS) {
            return;
        }
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    end++;
                }
                if (end - i >= 2 && end - i <= 64) {
                    words.add(Values.fold(text.substring(i, end)));
                }
                i = end;
            } else {
                i++;
            }
        }
    }

    /** Gives every value its template and returns the table the second pass replaces with. */
    Pseudonyms assign(Templates templates) {
        Set<String> toolsFolded = new HashSet<>();
        for (String t : tools) {
            toolsFolded.add(Values.fold(t));
        }
        Map<PersonalValue, List<String>> byValue = new HashMap<>();
        literals.forEach((literal, v) -> {
            boolean keptWord = v.kind() == ValueKind.NAME || v.kind() == ValueKind.PATH;
            if (kept.contains(literal) || toolsFolded.contains(literal) || (keptWord && kept.contains(v.normal()))) {
                return;
            }
            byValue.computeIfAbsent(v, k -> new ArrayList<>()).add(literal);
        });
        Map<PersonalValue, String> secretLiterals = new HashMap<>();
        secrets.forEach((literal, v) -> {
            if (!kept.contains(Values.collapsed(literal)) && !tools.contains(literal)) {
                secretLiterals.put(v, literal);
            }
        });
        Set<String> originals = new HashSet<>(literals.keySet());
        for (PersonalValue v : byValue.keySet()) {
            originals.add(v.normal());
        }
        List<PersonalValue> order = new ArrayList<>(byValue.keySet());
        order.addAll(secretLiterals.keySet());
        order.sort(Comparator.comparing((PersonalValue v) -> v.kind().ordinal()).thenComparing(PersonalValue::normal));
        Map<PersonalValue, String> assigned = new HashMap<>();
        Set<String> taken = new HashSet<>();
        Map<String, String> nameTemplates = new HashMap<>();
        int secondChoices = 0;
        for (PersonalValue v : order) {
            String template = null;
            for (int attempt = 0; template == null; attempt++) {
                String t = templates.of(v.kind(), v.normal(), attempt, nameTemplates::get);
                if (attempt >= MAX_ATTEMPTS) {
                    t = t + "-" + attempt;
                }
                String f = Values.fold(t);
                boolean ok = !f.equals(Values.fold(v.normal())) && !taken.contains(f);
                if (ok && attempt < STRICT_ATTEMPTS) {
                    ok = !originals.contains(f) && !words.contains(f) && !toolsFolded.contains(f);
                }
                if (ok) {
                    template = t;
                    if (attempt > 0) {
                        secondChoices++;
                    }
                }
            }
            taken.add(Values.fold(template));
            assigned.put(v, template);
            if (v.kind() == ValueKind.NAME) {
                nameTemplates.put(v.normal(), template);
            }
        }
        ValueTrie trie = new ValueTrie();
        Map<String, ValueTrie.Entry> whole = new HashMap<>();
        byValue.forEach((v, lits) -> {
            for (String literal : lits) {
                int min = v.kind() == ValueKind.NAME ? 2 : 3;
                ValueTrie.Entry e = new ValueTrie.Entry(v, null, literal.length() < min,
                        Values.isWordChar(literal.charAt(0)), Values.isWordChar(literal.charAt(literal.length() - 1)));
                trie.add(literal, e);
                whole.put(literal, e);
            }
        });
        secretLiterals.forEach((v, literal) -> {
            String folded = Values.collapsed(literal);
            ValueTrie.Entry e = new ValueTrie.Entry(v, literal, false, Values.isWordChar(literal.charAt(0)),
                    Values.isWordChar(literal.charAt(literal.length() - 1)));
            trie.add(folded, e);
        });
        return new Pseudonyms(trie, whole, assigned, tools, secondChoices);
    }
}
