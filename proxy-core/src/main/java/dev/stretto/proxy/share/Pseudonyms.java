package dev.stretto.proxy.share;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run's values and their templates, as {@link Dictionary#assign} made them: replaces every
 * occurrence of a value in a text, counting what it replaced, and remembers each text it
 * replaced and what with.
 */
final class Pseudonyms {

    /** Replacements counted by kind, for one file. */
    static final class Tally {
        private final EnumMap<ValueKind, Integer> counts = new EnumMap<>(ValueKind.class);

        void add(ValueKind kind) {
            counts.merge(kind, 1, Integer::sum);
        }

        Map<ValueKind, Integer> counts() {
            return counts;
        }
    }

    private final ValueTrie trie;
    private final Map<String, ValueTrie.Entry> whole;
    private final Map<PersonalValue, String> templates;
    private final List<String> tools;
    private final int secondChoices;
    private final Map<String, String> replaced = new LinkedHashMap<>();

    Pseudonyms(ValueTrie trie, Map<String, ValueTrie.Entry> whole, Map<PersonalValue, String> templates,
               Set<String> tools, int secondChoices) {
        this.trie = trie;
        this.whole = whole;
        this.templates = templates;
        this.tools = tools.stream().filter(t -> t.length() >= 3).sorted().toList();
        this.secondChoices = secondChoices;
    }

    /** How many values did not get their first template (it was taken, or already a word of the files). */
    int secondChoices() {
        return secondChoices;
    }

    /** How many values there are. */
    int size() {
        return templates.size();
    }

    /** Every text replaced in this run, and what it was replaced with. */
    Map<String, String> replaced() {
        return replaced;
    }

    /** {@code text} with every value in it replaced, or {@code text} itself when it holds none. */
    String replaceIn(String text, Tally tally) {
        if (trie.isEmpty() || text.isEmpty()) {
            return text;
        }
        List<ValueTrie.Hit> hits = trie.find(text, shielded(text));
        if (hits.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16 * hits.size());
        int copied = 0;
        for (ValueTrie.Hit h : hits) {
            out.append(text, copied, h.start());
            out.append(render(h.entry().value(), text.substring(h.start(), h.end()), tally));
            copied = h.end();
        }
        return out.append(text, copied, text.length()).toString();
    }

    /**
     * The replacement of a whole text that is one value (an object's key, a number), or null
     * when it is none.
     */
    String whole(String text, Tally tally) {
        ValueTrie.Entry e = whole.get(Values.collapsed(text));
        if (e == null) {
            return null;
        }
        return render(e.value(), text, tally);
    }

    private String render(PersonalValue v, String occurrence, Tally tally) {
        String template = templates.get(v);
        String out = Occurrences.render(v.kind(), template, occurrence);
        tally.add(v.kind());
        replaced.putIfAbsent(occurrence, out);
        return out;
    }

    /** Where the tools' names stand in {@code text}: never rewritten. */
    private int[] shielded(String text) {
        if (tools.isEmpty()) {
            return null;
        }
        List<int[]> ranges = new ArrayList<>();
        for (String tool : tools) {
            for (int at = text.indexOf(tool); at >= 0; at = text.indexOf(tool, at + 1)) {
                boolean gluedBefore = at > 0 && (Values.isWordChar(text.charAt(at - 1)) || text.charAt(at - 1) == '_');
                int end = at + tool.length();
                boolean gluedAfter = end < text.length() && (Values.isWordChar(text.charAt(end)) || text.charAt(end) == '_');
                if (!gluedBefore && !gluedAfter) {
                    ranges.add(new int[] {at, end});
                }
            }
        }
        if (ranges.isEmpty()) {
            return null;
        }
        ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] r : ranges) {
            if (!merged.isEmpty() && merged.getLast()[1] >= r[0]) {
                merged.getLast()[1] = Math.max(merged.getLast()[1], r[1]);
            } else {
                merged.add(r);
            }
        }
        int[] out = new int[merged.size() * 2];
        for (int i = 0; i < merged.size(); i++) {
            out[2 * i] = merged.get(i)[0];
            out[2 * i + 1] = merged.get(i)[1];
        }
        return out;
    }
}
