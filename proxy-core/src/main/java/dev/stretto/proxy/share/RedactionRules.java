package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a redaction looks for beyond its built-in detectors, and what it leaves alone: JSON
 * keys whose values are personal, JSON pointers into a tool's arguments or result, regular
 * expressions, values to keep everywhere, and fields whose values are kept. Immutable; each
 * {@code with...} method returns a copy.
 *
 * <p>A rules file is one JSON object, every member optional:
 * <pre>{@code
 * {
 *   "keys":        {"loyalty_number": "id", "nickname": "name"},
 *   "tools":       {"get_user_details": {"arguments": {"/user_id": "id"},
 *                                        "result": {"/profile/bio": "text", "/orders/*": "id"}}},
 *   "patterns":    {"EMP-[0-9]{6}": "id"},
 *   "keep":        ["support@shop.example"],
 *   "keep_fields": ["order_id"]
 * }
 * }</pre>
 * Kinds are {@link ValueKind#wireName()}s. A pointer is an RFC 6901 JSON pointer into the
 * call's arguments or into its result (the structured content, or the text of a result that
 * is JSON), where a segment {@code *} stands for every element or member; everything under
 * the value it points at is taken as of its kind.
 */
public final class RedactionRules {

    /** Which of a tool's data a pointer reads. */
    public enum Part {
        /** The call's arguments. */
        ARGUMENTS,
        /** The call's result. */
        RESULT
    }

    private record PointerRule(String tool, Part part, List<String> segments, ValueKind kind) {
    }

    private record PatternRule(Pattern pattern, ValueKind kind) {
    }

    private final Map<String, ValueKind> keys;
    private final List<PointerRule> pointers;
    private final List<PatternRule> patterns;
    private final Set<String> keptValues;
    private final Set<String> keptFields;

    private RedactionRules(Map<String, ValueKind> keys, List<PointerRule> pointers, List<PatternRule> patterns,
                           Set<String> keptValues, Set<String> keptFields) {
        this.keys = Map.copyOf(keys);
        this.pointers = List.copyOf(pointers);
        this.patterns = List.copyOf(patterns);
        this.keptValues = Set.copyOf(keptValues);
        this.keptFields = Set.copyOf(keptFields);
    }

    /** {@return rules that add nothing to the built-in detectors} */
    public static RedactionRules none() {
        return new RedactionRules(Map.of(), List.of(), List.of(), Set.of(), Set.of());
    }

    /**
     * Reads a rules file.
     *
     * @param file the file
     * @return its rules
     * @throws ShareException when the file is not valid rules (the message names the file and what is wrong)
     * @throws IOException    when it cannot be read
     */
    public static RedactionRules read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * Parses the text of a rules file.
     *
     * @param json   the text
     * @param source how to name it in errors
     * @return its rules
     * @throws ShareException when it is not valid rules
     */
    public static RedactionRules parse(String json, String source) throws ShareException {
        JsonNode root;
        try {
            root = CanonicalJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw new ShareException(source + ": not JSON: " + e.getMessage());
        }
        if (!root.isObject()) {
            throw new ShareException(source + ": a rules file is one JSON object");
        }
        RedactionRules rules = none();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            String where = source + ": \"" + f.getKey() + "\"";
            switch (f.getKey()) {
                case "keys" -> {
                    for (Map.Entry<String, String> e : stringMap(v, where).entrySet()) {
                        rules = rules.withKey(e.getKey(), kind(e.getValue(), where + " of \"" + e.getKey() + "\""));
                    }
                }
                case "tools" -> rules = tools(rules, v, where);
                case "patterns" -> {
                    for (Map.Entry<String, String> e : stringMap(v, where).entrySet()) {
                        try {
                            rules = rules.withPattern(e.getKey(), kind(e.getValue(), where));
                        } catch (IllegalArgumentException bad) {
                            throw new ShareException(where + ": " + bad.getMessage());
                        }
                    }
                }
                case "keep" -> {
                    for (String s : strings(v, where)) {
                        rules = rules.keepingValue(s);
                    }
                }
                case "keep_fields" -> {
                    for (String s : strings(v, where)) {
                        rules = rules.keepingField(s);
                    }
                }
                default -> throw new ShareException(source + ": unknown member \"" + f.getKey()
                        + "\" (a rules file has keys, tools, patterns, keep and keep_fields)");
            }
        }
        return rules;
    }

    private static RedactionRules tools(RedactionRules rules, JsonNode v, String where) throws ShareException {
        if (!v.isObject()) {
            throw new ShareException(where + " must be an object of tools");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> tool = it.next();
            String at = where + " of \"" + tool.getKey() + "\"";
            if (!tool.getValue().isObject()) {
                throw new ShareException(at + " must be an object with \"arguments\" and/or \"result\"");
            }
            for (Iterator<Map.Entry<String, JsonNode>> parts = tool.getValue().fields(); parts.hasNext(); ) {
                Map.Entry<String, JsonNode> part = parts.next();
                Part which = switch (part.getKey()) {
                    case "arguments" -> Part.ARGUMENTS;
                    case "result" -> Part.RESULT;
                    default -> throw new ShareException(at + ": unknown member \"" + part.getKey()
                            + "\" (a tool's rules have arguments and result)");
                };
                for (Map.Entry<String, String> p : stringMap(part.getValue(), at + "." + part.getKey()).entrySet()) {
                    try {
                        rules = rules.withPointer(tool.getKey(), which, p.getKey(), kind(p.getValue(), at));
                    } catch (IllegalArgumentException bad) {
                        throw new ShareException(at + ": " + bad.getMessage());
                    }
                }
            }
        }
        return rules;
    }

    private static Map<String, String> stringMap(JsonNode v, String where) throws ShareException {
        if (!v.isObject()) {
            throw new ShareException(where + " must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new ShareException(where + ": the value of \"" + e.getKey() + "\" must be a string (a kind)");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    private static List<String> strings(JsonNode v, String where) throws ShareException {
        if (!v.isArray()) {
            throw new ShareException(where + " must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode s : v) {
            if (!s.isTextual()) {
                throw new ShareException(where + " must be a list of strings");
            }
            out.add(s.textValue());
        }
        return out;
    }

    private static ValueKind kind(String name, String where) throws ShareException {
        try {
            return ValueKind.ofWireName(name);
        } catch (IllegalArgumentException e) {
            throw new ShareException(where + ": " + e.getMessage());
        }
    }

    /**
     * These rules with one more personal key.
     *
     * @param key  a JSON key, compared as the built-in ones are (no case, no separators)
     * @param kind the kind of its values
     * @return the new rules
     */
    public RedactionRules withKey(String key, ValueKind kind) {
        Map<String, ValueKind> k = new HashMap<>(keys);
        k.put(PersonalKeys.normal(key), kind);
        return new RedactionRules(k, pointers, patterns, keptValues, keptFields);
    }

    /**
     * These rules with one more pointer into a tool's data.
     *
     * @param tool    the tool's name as the server lists it
     * @param part    its arguments or its result
     * @param pointer a JSON pointer ({@code ""} for the whole, {@code "/a/0"}, {@code "/a/*"})
     * @param kind    the kind of the values there
     * @return the new rules
     * @throws IllegalArgumentException when {@code pointer} is not a JSON pointer
     */
    public RedactionRules withPointer(String tool, Part part, String pointer, ValueKind kind) {
        List<PointerRule> p = new ArrayList<>(pointers);
        p.add(new PointerRule(tool, part, segments(pointer), kind));
        return new RedactionRules(keys, p, patterns, keptValues, keptFields);
    }

    /**
     * These rules with one more pattern, looked for in every text.
     *
     * @param regex a Java regular expression; each match is a value
     * @param kind  the kind of its matches
     * @return the new rules
     * @throws IllegalArgumentException when {@code regex} is not a regular expression
     */
    public RedactionRules withPattern(String regex, ValueKind kind) {
        Pattern compiled;
        try {
            compiled = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a regular expression: " + regex + " (" + e.getDescription() + ")");
        }
        List<PatternRule> p = new ArrayList<>(patterns);
        p.add(new PatternRule(compiled, kind));
        return new RedactionRules(keys, pointers, p, keptValues, keptFields);
    }

    /**
     * These rules keeping one value as it is wherever it stands (compared without case).
     *
     * @param value the value
     * @return the new rules
     */
    public RedactionRules keepingValue(String value) {
        Set<String> k = new LinkedHashSet<>(keptValues);
        k.add(value);
        return new RedactionRules(keys, pointers, patterns, k, keptFields);
    }

    /**
     * These rules keeping the values of a field: each value found under that key is kept as
     * it is, there and wherever else it stands.
     *
     * @param field a JSON key, compared as personal keys are
     * @return the new rules
     */
    public RedactionRules keepingField(String field) {
        Set<String> k = new LinkedHashSet<>(keptFields);
        k.add(PersonalKeys.normal(field));
        return new RedactionRules(keys, pointers, patterns, keptValues, k);
    }

    /**
     * These rules keeping the values of several fields; see {@link #keepingField(String)}.
     *
     * @param fields JSON keys
     * @return the new rules
     */
    public RedactionRules keepingFields(Collection<String> fields) {
        RedactionRules r = this;
        for (String f : fields) {
            r = r.keepingField(f);
        }
        return r;
    }

    Map<String, ValueKind> keys() {
        return keys;
    }

    Set<String> keptValues() {
        return keptValues;
    }

    boolean keepsField(String key) {
        return !keptFields.isEmpty() && keptFields.contains(PersonalKeys.normal(key));
    }

    List<Detectors.Rule> detectorRules() {
        List<Detectors.Rule> out = new ArrayList<>();
        for (PatternRule p : patterns) {
            out.add(new Detectors.Rule(p.kind(), p.pattern()));
        }
        return out;
    }

    /** The kind a pointer rule gives the value at {@code path} of {@code tool}'s data, or null. */
    ValueKind pointerKind(String tool, Zone.Root root, Zone.Segment path) {
        if (pointers.isEmpty() || tool == null || root == Zone.Root.NONE) {
            return null;
        }
        Part part = root == Zone.Root.ARGUMENTS ? Part.ARGUMENTS : Part.RESULT;
        List<String> at = new ArrayList<>();
        for (Zone.Segment s = path; s != null; s = s.parent()) {
            at.addFirst(s.name());
        }
        for (PointerRule r : pointers) {
            if (r.tool().equals(tool) && r.part() == part && r.segments().size() <= at.size()) {
                boolean match = true;
                for (int i = 0; i < r.segments().size() && match; i++) {
                    match = r.segments().get(i).equals("*") || r.segments().get(i).equals(at.get(i));
                }
                if (match) {
                    return r.kind();
                }
            }
        }
        return null;
    }

    private static List<String> segments(String pointer) {
        if (pointer.isEmpty()) {
            return List.of();
        }
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("not a JSON pointer: \"" + pointer + "\" (it starts with /)");
        }
        List<String> out = new ArrayList<>();
        for (String s : pointer.substring(1).split("/", -1)) {
            out.add(s.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }
}
