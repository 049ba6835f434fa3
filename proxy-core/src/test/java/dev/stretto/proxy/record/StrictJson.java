package dev.stretto.proxy.record;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * An RFC 8259 recogniser written from the grammar, independent of Jackson, to judge what the
 * log writer writes: a JSON text in well-formed UTF-8 (no BOM, white space only of the four
 * kinds), plus the facts serde_json, the reference's reader, also cares about: how deep arrays
 * and objects nest, whether an escaped surrogate is left unpaired, whether a number overflows
 * a double.
 */
public final class StrictJson {

    /**
     * What the recogniser found.
     *
     * @param valid          the bytes are exactly one JSON text
     * @param depth          the deepest nesting of arrays and objects (0 for a scalar)
     * @param loneSurrogate  a string holds an escaped surrogate that is not half of a pair
     * @param numberOverflow a number is beyond the range of a double
     */
    public record Verdict(boolean valid, int depth, boolean loneSurrogate, boolean numberOverflow) {

        /** One JSON text that serde_json reads back when wrapped in {@code extraLevels} more. */
        boolean readableBySerde(int extraLevels) {
            return valid && depth + extraLevels <= 127 && !loneSurrogate && !numberOverflow;
        }
    }

    private final byte[] b;
    private final int end;
    private int i;
    private int depth;
    private int maxDepth;
    private boolean loneSurrogate;
    private boolean numberOverflow;

    private StrictJson(byte[] b, int off, int len) {
        this.b = b;
        this.i = off;
        this.end = off + len;
    }

    public static Verdict judge(byte[] bytes) {
        return judge(bytes, 0, bytes.length);
    }

    static Verdict judge(byte[] bytes, int off, int len) {
        StrictJson p = new StrictJson(bytes, off, len);
        boolean ok;
        try {
            p.ws();
            p.value();
            p.ws();
            ok = p.i == p.end;
        } catch (Bad e) {
            ok = false;
        }
        return new Verdict(ok, p.maxDepth, p.loneSurrogate, p.numberOverflow);
    }

    /**
     * The length of the well-formed UTF-8 sequence at {@code off}, by the JDK's strict decoder
     * (which rejects overlongs, surrogates and values above U+10FFFF), or 0 when there is none.
     */
    static int wellFormedLength(byte[] bytes, int off, int end) {
        for (int n = 1; n <= 4 && off + n <= end; n++) {
            try {
                CharSequence cs = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes, off, n));
                if (cs.length() > 0 && Character.codePointCount(cs, 0, cs.length()) == 1) {
                    return n;
                }
            } catch (CharacterCodingException e) {
                // Try one byte more.
            }
        }
        return 0;
    }

    private static final class Bad extends Exception {
        Bad() {
            super(null, null, false, false);
        }
    }

    private int peek() {
        return i < end ? b[i] & 0xFF : -1;
    }

    private void expect(int c) throws Bad {
        if (peek() != c) {
            throw new Bad();
        }
        i++;
    }

    private void ws() {
        while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
            i++;
        }
    }

    private void value() throws Bad {
        switch (peek()) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void literal(String word) throws Bad {
        for (int k = 0; k < word.length(); k++) {
            expect(word.charAt(k));
        }
    }

    private void enter() {
        depth++;
        maxDepth = Math.max(maxDepth, depth);
    }

    private void object() throws Bad {
        expect('{');
        enter();
        ws();
        if (peek() == '}') {
            i++;
            depth--;
            return;
        }
        while (true) {
            ws();
            string();
            ws();
            expect(':');
            ws();
            value();
            ws();
            if (peek() == ',') {
                i++;
            } else {
                expect('}');
                depth--;
                return;
            }
        }
    }

    private void array() throws Bad {
        expect('[');
        enter();
        ws();
        if (peek() == ']') {
            i++;
            depth--;
            return;
        }
        while (true) {
            ws();
            value();
            ws();
            if (peek() == ',') {
                i++;
            } else {
                expect(']');
                depth--;
                return;
            }
        }
    }

    private void string() throws Bad {
        expect('"');
        StringBuilder units = new StringBuilder();
        while (true) {
            int c = peek();
            if (c < 0 || c < 0x20) {
                throw new Bad();
            }
            if (c == '"') {
                i++;
                break;
            }
            if (c == '\\') {
                i++;
                int e = peek();
                i++;
                switch (e) {
                    case '"', '\\', '/' -> units.append((char) e);
                    case 'b', 'f', 'n', 'r', 't' -> units.append(' ');
                    case 'u' -> {
                        int unit = 0;
                        for (int k = 0; k < 4; k++) {
                            int h = Character.digit(peek(), 16);
                            if (peek() < 0 || peek() > 0x7F || h < 0) {
                                throw new Bad();
                            }
                            unit = unit * 16 + h;
                            i++;
                        }
                        units.append((char) unit);
                    }
                    default -> throw new Bad();
                }
            } else if (c < 0x80) {
                units.append((char) c);
                i++;
            } else {
                int n = wellFormedLength(b, i, end);
                if (n == 0) {
                    throw new Bad();
                }
                units.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
            }
        }
        for (int k = 0; k < units.length(); k++) {
            char u = units.charAt(k);
            if (Character.isHighSurrogate(u) && k + 1 < units.length() && Character.isLowSurrogate(units.charAt(k + 1))) {
                k++;
            } else if (Character.isSurrogate(u)) {
                loneSurrogate = true;
            }
        }
    }

    private void number() throws Bad {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else if (peek() >= '1' && peek() <= '9') {
            digits();
        } else {
            throw new Bad();
        }
        if (peek() == '.') {
            i++;
            if (!(peek() >= '0' && peek() <= '9')) {
                throw new Bad();
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            if (!(peek() >= '0' && peek() <= '9')) {
                throw new Bad();
            }
            digits();
        }
        String text = new String(b, start, i - start, StandardCharsets.US_ASCII);
        if (Double.isInfinite(Double.parseDouble(text))) {
            numberOverflow = true;
        }
    }

    private void digits() {
        while (peek() >= '0' && peek() <= '9') {
            i++;
        }
    }
}
