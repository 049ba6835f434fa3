package dev.stretto.cli.init;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the tables of a TOML text are: each table's header keys and the lines from its header
 * to its last line of content (blank and comment lines after it belong to whatever follows),
 * and where its comments are. Strings (multi-line ones too) and arrays that span lines are
 * stepped over, so a {@code [} inside one is not taken for a header. The text has been read by
 * a TOML parser already: this only finds where things are.
 */
final class TomlLayout {

    /**
     * One table: {@code [keys]} or, when {@code array}, {@code [[keys]]}; its text runs from
     * {@code start} (the header line's first character) to {@code end} (exclusive, after the
     * line ending of its last line of content).
     */
    record Table(List<String> keys, boolean array, int start, int end) {

        /** Whether this table belongs to the server {@code name} of {@code mcp_servers}. */
        boolean ofServer(String name) {
            return keys.size() >= 2 && keys.get(0).equals("mcp_servers") && keys.get(1).equals(name);
        }
    }

    private final String text;
    private final List<Table> tables = new ArrayList<>();
    private final List<Integer> comments = new ArrayList<>();

    private TomlLayout(String text) {
        this.text = text;
    }

    static TomlLayout of(String text) {
        TomlLayout layout = new TomlLayout(text);
        layout.scan();
        return layout;
    }

    List<Table> tables() {
        return tables;
    }

    /** Whether a comment starts between {@code from} and {@code to}. */
    boolean hasComment(int from, int to) {
        return comments.stream().anyMatch(c -> c >= from && c < to);
    }

    private void scan() {
        List<Table> pending = new ArrayList<>();
        int n = text.length();
        int depth = 0;
        int i = 0;
        boolean lineStart = true;
        while (i < n) {
            if (lineStart) {
                int lineBegin = i;
                while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                    i++;
                }
                lineStart = false;
                if (i < n && text.charAt(i) == '[' && depth == 0) {
                    i = header(lineBegin, i, pending);
                    lineStart = true;
                }
                continue;
            }
            switch (text.charAt(i)) {
                case '\n' -> {
                    lineStart = true;
                    i++;
                }
                case '#' -> {
                    comments.add(i);
                    i = endOfLine(i);
                    lineStart = true;
                }
                case '"' -> i = text.startsWith("\"\"\"", i) ? endOfMultiline(i, "\"\"\"", true) : endOfString(i, '"', true);
                case '\'' -> i = text.startsWith("'''", i) ? endOfMultiline(i, "'''", false) : endOfString(i, '\'', false);
                case '[', '{' -> {
                    depth++;
                    i++;
                }
                case ']', '}' -> {
                    depth = Math.max(0, depth - 1);
                    i++;
                }
                default -> i++;
            }
        }
        for (int k = 0; k < pending.size(); k++) {
            Table t = pending.get(k);
            int next = k + 1 < pending.size() ? pending.get(k + 1).start() : n;
            tables.add(new Table(t.keys(), t.array(), t.start(), contentEnd(t.start(), next)));
        }
    }

    /**
     * Reads the header at {@code at} (its line starts at {@code lineBegin}) into {@code pending}
     * and returns the offset after its line.
     */
    private int header(int lineBegin, int at, List<Table> pending) {
        int i = at + 1;
        boolean array = i < text.length() && text.charAt(i) == '[';
        if (array) {
            i++;
        }
        List<String> keys = new ArrayList<>();
        while (true) {
            i = skipSpaces(i);
            StringBuilder key = new StringBuilder();
            char c = text.charAt(i);
            if (c == '"') {
                i = basicString(i, key);
            } else if (c == '\'') {
                int end = text.indexOf('\'', i + 1);
                key.append(text, i + 1, end);
                i = end + 1;
            } else {
                while (i < text.length() && isBare(text.charAt(i))) {
                    key.append(text.charAt(i++));
                }
            }
            keys.add(key.toString());
            i = skipSpaces(i);
            if (text.charAt(i) == '.') {
                i++;
                continue;
            }
            break;
        }
        i += array ? 2 : 1; // the closing ] or ]]
        int eol = endOfLine(i);
        int hash = text.indexOf('#', i);
        if (hash >= 0 && hash < eol) {
            comments.add(hash);
        }
        pending.add(new Table(List.copyOf(keys), array, lineBegin, -1));
        return eol;
    }

    private int basicString(int at, StringBuilder out) {
        int i = at + 1;
        while (text.charAt(i) != '"') {
            char c = text.charAt(i);
            if (c == '\\') {
                char e = text.charAt(i + 1);
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 't' -> out.append('\t');
                    case 'n' -> out.append('\n');
                    case 'f' -> out.append('\f');
                    case 'r' -> out.append('\r');
                    case 'e' -> out.append('\u001b');
                    case 'u' -> {
                        out.appendCodePoint(Integer.parseInt(text.substring(i + 2, i + 6), 16));
                        i += 4;
                    }
                    case 'U' -> {
                        out.appendCodePoint(Integer.parseInt(text.substring(i + 2, i + 10), 16));
                        i += 8;
                    }
                    default -> out.append(e);
                }
                i += 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return i + 1;
    }

    private static boolean isBare(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-';
    }

    private int skipSpaces(int i) {
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** The offset after the line ending of the line holding {@code i}. */
    private int endOfLine(int i) {
        int nl = text.indexOf('\n', i);
        return nl < 0 ? text.length() : nl + 1;
    }

    private int endOfString(int at, char quote, boolean escapes) {
        int i = at + 1;
        while (i < text.length() && text.charAt(i) != quote && text.charAt(i) != '\n') {
            i += escapes && text.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(text.length(), i + 1);
    }

    private int endOfMultiline(int at, String delimiter, boolean escapes) {
        int i = at + 3;
        while (i < text.length() && !text.startsWith(delimiter, i)) {
            i += escapes && text.charAt(i) == '\\' ? 2 : 1;
        }
        i = Math.min(text.length(), i + 3);
        // Up to two quotes right before the delimiter's end are the string's own.
        for (int k = 0; k < 2 && i < text.length() && text.charAt(i) == delimiter.charAt(0); k++) {
            i++;
        }
        return i;
    }

    /**
     * The end of a table's text between {@code start} and {@code limit}: after its last line
     * that is neither blank nor only a comment.
     */
    private int contentEnd(int start, int limit) {
        int end = limit;
        while (end > start) {
            int lineStart = end - 1;
            // The line before `end` (end is just after a line ending, or the text's end).
            int scan = text.charAt(lineStart) == '\n' ? lineStart : end;
            int begin = scan;
            while (begin > start && text.charAt(begin - 1) != '\n') {
                begin--;
            }
            String line = text.substring(begin, scan).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                return end;
            }
            if (begin == start) {
                return end;
            }
            end = begin;
        }
        return end;
    }
}
