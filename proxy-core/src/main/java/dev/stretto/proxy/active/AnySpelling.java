package dev.stretto.proxy.active;

/**
 * Whether a word appears in a line however a JSON reader could spell it out: literally, or with
 * any character written as an escape ({@code \/}, {@code \u002f}, JSON5's {@code \x2f} and
 * {@code \q} for {@code q}, a backslash before a line break, which JSON5 drops). Bytes that are
 * not ASCII never match, invalid ones included (a reader replaces them). So a line that does
 * not mention the word cannot be read as holding it by any reader, strict or lenient: the one
 * look the actor gives every line of the host's before it knows whether to read it closely.
 */
final class AnySpelling {

    private AnySpelling() {
    }

    /** Whether {@code word} (ASCII) appears in {@code line}, escapes read as any JSON dialect reads them. */
    static boolean mentions(byte[] line, String word) {
        int[] border = borders(word);
        boolean escapes = false;
        for (byte b : line) {
            if (b == '\\') {
                escapes = true;
                break;
            }
        }
        int matched = 0;
        int i = 0;
        while (i < line.length) {
            int c = line[i] & 0xff;
            int next = i + 1;
            if (escapes && c == '\\' && next < line.length) {
                int e = line[next] & 0xff;
                next++;
                switch (e) {
                    case 'u' -> {
                        int v = hex(line, next, 4);
                        c = v >= 0 ? v : 'u';
                        next += v >= 0 ? 4 : 0;
                    }
                    case 'x' -> {
                        int v = hex(line, next, 2);
                        c = v >= 0 ? v : 'x';
                        next += v >= 0 ? 2 : 0;
                    }
                    case 'b', 'f', 'n', 'r', 't', 'v', '0' -> c = 0;
                    case '\r', '\n' -> c = -1;
                    default -> c = e;
                }
            }
            i = next;
            if (c < 0) {
                continue;
            }
            while (matched > 0 && c != word.charAt(matched)) {
                matched = border[matched - 1];
            }
            if (c == word.charAt(matched)) {
                matched++;
                if (matched == word.length()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The value of {@code n} hex digits at {@code at}, or -1 when there are not {@code n} of them. */
    private static int hex(byte[] line, int at, int n) {
        if (at + n > line.length) {
            return -1;
        }
        int v = 0;
        for (int k = at; k < at + n; k++) {
            int d = Character.digit(line[k], 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    /** Knuth-Morris-Pratt's table: for each prefix of {@code word}, the length of its longest proper border. */
    private static int[] borders(String word) {
        int[] b = new int[word.length()];
        for (int i = 1, k = 0; i < word.length(); i++) {
            while (k > 0 && word.charAt(i) != word.charAt(k)) {
                k = b[k - 1];
            }
            if (word.charAt(i) == word.charAt(k)) {
                k++;
            }
            b[i] = k;
        }
        return b;
    }
}
