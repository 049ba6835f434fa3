package dev.stretto.trace.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@link LineClassifier}'s rule as one streaming pass over a line's bytes: whether the line is
 * a {@code message} (one JSON text any reader accepts, once trimmed) or {@code raw}. The bytes
 * may come in any number of pieces ({@link #update}), split anywhere, so a line of any length
 * is checked where it lies, without being decoded, copied or parsed into anything; the check
 * holds a few counters and a stack of at most 126 container kinds. It is the rule's only
 * implementation: {@link LineClassifier} runs it too.
 *
 * <p>The rule, restated for bytes: after surrounding ASCII white space (space, tab, LF, CR,
 * form feed) the bytes are exactly one value of RFC 8259's grammar (white space between
 * tokens of JSON's four kinds only, no control character unescaped); strings are well-formed
 * UTF-8 (which also rules out a byte order mark, since outside strings only ASCII may appear);
 * every escaped surrogate is one of a pair; every number is finite as a double; and arrays and
 * objects nest at most 126 deep.
 *
 * <p>Use: {@link #update} with the line's bytes in order, then {@link #isMessage()}; the
 * message is then the bytes from {@link #messageStart()} to {@link #messageEnd()}. {@link
 * #reset()} starts a new line. Not thread-safe.
 */
public final class MessageCheck {

    /** How deep arrays and objects may nest in a message (see {@link LineClassifier}). */
    static final int MAX_DEPTH = 126;

    // Where the check is: between tokens, or inside one.
    private static final int BEFORE = 0; // leading white space (all five kinds), then the value
    private static final int VALUE = 1; // a value: after ':' or after ',' in an array
    private static final int ARRAY_FIRST = 2; // after '[': a value or ']'
    private static final int OBJECT_FIRST = 3; // after '{': a key or '}'
    private static final int KEY = 4; // after ',' in an object
    private static final int COLON = 5;
    private static final int AFTER = 6; // after a value in a container: ',' or its closer
    private static final int END = 7; // after the value: trailing white space only
    private static final int STRING = 8;
    private static final int ESCAPE = 9; // after a backslash
    private static final int HEX = 10; // in the four digits of a \\u escape
    private static final int LOW_BACKSLASH = 11; // an escaped high surrogate needs "\\u" and a low one next
    private static final int LOW_U = 12;
    private static final int UTF8 = 13; // inside a multi-byte sequence of a string, split between pieces
    private static final int NUMBER = 14;
    private static final int LITERAL = 15;
    private static final int INVALID = 16;

    // Parts of a number, by RFC 8259's grammar.
    private static final int N_MINUS = 0;
    private static final int N_ZERO = 1;
    private static final int N_INT = 2;
    private static final int N_DOT = 3;
    private static final int N_FRAC = 4;
    private static final int N_E = 5;
    private static final int N_E_SIGN = 6;
    private static final int N_EXP = 7;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    // A double overflows past 10^309 at the latest: a number whose first significant digit
    // stands for 10^308 needs its digits compared, and the first 309 of them decide.
    private static final int DECIDING_DIGITS = 309;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;

    private int state;
    // Offset of the next byte from the start of the line.
    private long position;
    private long messageStart;
    private long messageEnd;
    private int depth;
    // objects[d] is true when the container at depth d + 1 is an object.
    private final boolean[] objects = new boolean[MAX_DEPTH];
    // The string being read is an object's key.
    private boolean key;
    private int hexDigits;
    private int hexValue;
    private boolean expectLow;
    // A multi-byte sequence split between pieces: continuation bytes still due, the range of the next.
    private int utf8Left;
    private int utf8Low;
    private int utf8High;
    private int numberPart;
    private long intDigits;
    private long fractionZeros;
    private boolean fractionNonZero;
    private int exponent;
    private boolean exponentNegative;
    private final byte[] digits = new byte[DECIDING_DIGITS];
    private int digitCount;
    private boolean nonZeroBeyond;
    private byte[] literal;
    private int literalAt;

    /** A check of a new line. */
    public MessageCheck() {
    }

    /** Starts a new line. */
    public void reset() {
        state = BEFORE;
        position = 0;
        depth = 0;
    }

    /**
     * The next {@code len} bytes of the line, from {@code b[off]}.
     *
     * @param b   where they are
     * @param off where they start in {@code b}
     * @param len how many there are
     */
    public void update(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        int s = state;
        // Offset of b[0] from the start of the line.
        long base = position - off;
        loop:
        while (i < end) {
            switch (s) {
                case STRING -> {
                    // The bulk of a line: printable ASCII runs through here, eight bytes at a
                    // time while they are plain; where a word is not, its bytes one by one.
                    int narrowUntil = i;
                    while (i < end) {
                        if (i >= narrowUntil) {
                            if (i + 8 <= end && plain((long) LONGS.get(b, i))) {
                                i += 8;
                                narrowUntil = i;
                                continue;
                            }
                            narrowUntil = i + 8;
                        }
                        byte c = b[i];
                        if (c >= 0x20 && c != '"' && c != '\\') {
                            i++;
                        } else if (c == '"') {
                            i++;
                            if (key) {
                                s = COLON;
                            } else {
                                s = valueDone(base + i);
                            }
                            continue loop;
                        } else if (c == '\\') {
                            i++;
                            s = ESCAPE;
                            continue loop;
                        } else if (c < 0) {
                            int n = multiByte(b, i, end);
                            if (n < 0) {
                                s = INVALID;
                                break loop;
                            }
                            if (n == 0) {
                                // Split between pieces: the rest is checked in state UTF8.
                                i = end;
                                s = UTF8;
                                break loop;
                            }
                            i += n;
                        } else {
                            s = INVALID; // a control character
                            break loop;
                        }
                    }
                }
                case VALUE, ARRAY_FIRST, BEFORE -> {
                    byte c = b[i];
                    if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' && s == BEFORE) {
                        i++;
                        continue;
                    }
                    if (s == BEFORE) {
                        messageStart = base + i;
                    }
                    if (c == ']' && s == ARRAY_FIRST) {
                        i++;
                        s = close(base + i);
                        continue;
                    }
                    i++;
                    s = startValue(c);
                }
                case AFTER -> {
                    byte c = b[i++];
                    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                        continue;
                    }
                    boolean object = objects[depth - 1];
                    if (c == ',') {
                        s = object ? KEY : VALUE;
                    } else if (c == (object ? '}' : ']')) {
                        s = close(base + i);
                    } else {
                        s = INVALID;
                    }
                }
                case OBJECT_FIRST, KEY -> {
                    byte c = b[i++];
                    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                        continue;
                    }
                    if (c == '"') {
                        key = true;
                        s = STRING;
                    } else if (c == '}' && s == OBJECT_FIRST) {
                        s = close(base + i);
                    } else {
                        s = INVALID;
                    }
                }
                case COLON -> {
                    byte c = b[i++];
                    if (c == ':') {
                        s = VALUE;
                    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                        s = INVALID;
                    }
                }
                case END -> {
                    byte c = b[i++];
                    if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\f') {
                        s = INVALID;
                    }
                }
                case ESCAPE -> {
                    byte c = b[i++];
                    switch (c) {
                        case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> s = STRING;
                        case 'u' -> {
                            hexDigits = 0;
                            hexValue = 0;
                            expectLow = false;
                            s = HEX;
                        }
                        default -> s = INVALID;
                    }
                }
                case HEX -> {
                    int d = Character.digit(b[i++], 16);
                    if (d < 0) {
                        s = INVALID;
                        continue;
                    }
                    hexValue = hexValue << 4 | d;
                    if (++hexDigits == 4) {
                        s = escaped(hexValue);
                    }
                }
                case LOW_BACKSLASH -> s = b[i++] == '\\' ? LOW_U : INVALID;
                case LOW_U -> {
                    if (b[i++] == 'u') {
                        hexDigits = 0;
                        hexValue = 0;
                        expectLow = true;
                        s = HEX;
                    } else {
                        s = INVALID;
                    }
                }
                case UTF8 -> {
                    int c = b[i] & 0xFF;
                    if (c < utf8Low || c > utf8High) {
                        s = INVALID;
                        continue;
                    }
                    i++;
                    utf8Low = 0x80;
                    utf8High = 0xBF;
                    if (--utf8Left == 0) {
                        s = STRING;
                    }
                }
                case NUMBER -> {
                    byte c = b[i];
                    int next = number(c);
                    if (next >= 0) {
                        numberPart = next;
                        i++;
                    } else if (next == -1) {
                        // The number ended before this byte, which is looked at again.
                        s = numberDone(base + i);
                    } else {
                        s = INVALID;
                    }
                }
                case LITERAL -> {
                    if (b[i++] != literal[literalAt++]) {
                        s = INVALID;
                    } else if (literalAt == literal.length) {
                        s = valueDone(base + i);
                    }
                }
                default -> {
                    // INVALID: nothing can make the line a message again.
                    i = end;
                }
            }
        }
        state = s;
        position = base + end;
    }

    /**
     * Whether the bytes given since {@link #reset()} are one message by the rule. Call once all
     * of the line has been given; the line may not be continued after it.
     *
     * @return whether the line is one message
     */
    public boolean isMessage() {
        if (state == NUMBER) {
            state = numberDone(position);
        }
        return state == END;
    }

    /** {@return where the message starts (after leading white space), once {@link #isMessage()} said it is one} */
    public long messageStart() {
        return messageStart;
    }

    /** {@return where the message ends (before trailing white space), once {@link #isMessage()} said it is one} */
    public long messageEnd() {
        return messageEnd;
    }

    /**
     * Whether all eight bytes of {@code x} are plain string content: ASCII, not a control
     * character, not {@code '"'} nor {@code '\\'}. SWAR: a byte below 0x20 (there being no high
     * bit set) borrows into its high bit in {@code x - 0x20..}, and a byte equal to one of the two
     * leaves a zero after the XOR, found the same way; a borrow can mark a byte above a true one
     * too, which only ever answers false where false is right.
     */
    private static boolean plain(long x) {
        long quote = x ^ 0x2222222222222222L;
        long backslash = x ^ 0x5C5C5C5C5C5C5C5CL;
        return ((x | ((x - 0x2020202020202020L) & ~x) | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash))
                & HIGH) == 0;
    }

    private int startValue(byte c) {
        switch (c) {
            case '"' -> {
                key = false;
                return STRING;
            }
            case '{', '[' -> {
                if (depth == MAX_DEPTH) {
                    return INVALID;
                }
                objects[depth++] = c == '{';
                return c == '{' ? OBJECT_FIRST : ARRAY_FIRST;
            }
            case 't' -> {
                return literal(TRUE);
            }
            case 'f' -> {
                return literal(FALSE);
            }
            case 'n' -> {
                return literal(NULL);
            }
            case '-' -> {
                return startNumber(N_MINUS, (byte) 0);
            }
            case '0' -> {
                return startNumber(N_ZERO, (byte) 0);
            }
            default -> {
                if (c >= '1' && c <= '9') {
                    return startNumber(N_INT, c);
                }
                return INVALID;
            }
        }
    }

    private int literal(byte[] word) {
        literal = word;
        literalAt = 1;
        return LITERAL;
    }

    private int startNumber(int part, byte firstDigit) {
        numberPart = part;
        intDigits = 0;
        fractionZeros = 0;
        fractionNonZero = false;
        exponent = 0;
        exponentNegative = false;
        digitCount = 0;
        nonZeroBeyond = false;
        if (firstDigit != 0) {
            intDigits = 1;
            significant(firstDigit);
        }
        return NUMBER;
    }

    /**
     * The number's next part after byte {@code c}: a part (0 and up), -1 when the number ended
     * before {@code c}, -2 when {@code c} makes it no number at all.
     */
    private int number(byte c) {
        boolean digit = c >= '0' && c <= '9';
        switch (numberPart) {
            case N_MINUS -> {
                if (c == '0') {
                    return N_ZERO;
                }
                if (digit) {
                    intDigits = 1;
                    significant(c);
                    return N_INT;
                }
                return -2;
            }
            case N_ZERO, N_INT -> {
                if (digit && numberPart == N_INT) {
                    intDigits++;
                    significant(c);
                    return N_INT;
                }
                if (c == '.') {
                    return N_DOT;
                }
                return c == 'e' || c == 'E' ? N_E : -1;
            }
            case N_DOT, N_FRAC -> {
                if (digit) {
                    if (intDigits == 0 && !fractionNonZero) {
                        if (c == '0') {
                            fractionZeros++;
                        } else {
                            fractionNonZero = true;
                            significant(c);
                        }
                    } else {
                        significant(c);
                    }
                    return N_FRAC;
                }
                if (numberPart == N_DOT) {
                    return -2;
                }
                return c == 'e' || c == 'E' ? N_E : -1;
            }
            case N_E -> {
                if (c == '+' || c == '-') {
                    exponentNegative = c == '-';
                    return N_E_SIGN;
                }
                return digit ? exponentDigit(c) : -2;
            }
            case N_E_SIGN -> {
                return digit ? exponentDigit(c) : -2;
            }
            default -> {
                return digit ? exponentDigit(c) : -1;
            }
        }
    }

    private int exponentDigit(byte c) {
        // Saturates: any exponent this large already decides the question.
        exponent = Math.min(1_000_000, exponent * 10 + (c - '0'));
        return N_EXP;
    }

    private void significant(byte c) {
        if (digitCount < DECIDING_DIGITS) {
            digits[digitCount++] = c;
        } else if (c != '0') {
            nonZeroBeyond = true;
        }
    }

    /** The number has ended at {@code at}: valid when it ended whole and is finite as a double. */
    private int numberDone(long at) {
        if (numberPart == N_MINUS || numberPart == N_DOT || numberPart == N_E || numberPart == N_E_SIGN) {
            return INVALID;
        }
        if (!finite()) {
            return INVALID;
        }
        return valueDone(at);
    }

    private boolean finite() {
        int e = exponentNegative ? -exponent : exponent;
        // The power of ten the first significant digit stands for.
        long lead;
        if (intDigits > 0) {
            lead = intDigits - 1 + e;
        } else if (fractionNonZero) {
            lead = e - (fractionZeros + 1);
        } else {
            return true; // zero
        }
        if (lead <= 307) {
            return true;
        }
        if (lead >= 309) {
            return false;
        }
        // Between 10^308 and 10^309, about where doubles end: parse the digits that decide.
        String text = "0." + new String(digits, 0, digitCount, java.nio.charset.StandardCharsets.US_ASCII)
                + (nonZeroBeyond ? "1" : "") + "e309";
        return Double.isFinite(Double.parseDouble(text));
    }

    /** A value has ended at {@code at} (just after it): what follows it. */
    private int valueDone(long at) {
        if (depth == 0) {
            messageEnd = at;
            return END;
        }
        return AFTER;
    }

    private int close(long at) {
        depth--;
        return valueDone(at);
    }

    /** A \\u escape of {@code c} was read: what follows it. */
    private int escaped(int c) {
        boolean high = c >= 0xD800 && c <= 0xDBFF;
        boolean low = c >= 0xDC00 && c <= 0xDFFF;
        if (expectLow) {
            return low ? STRING : INVALID;
        }
        if (high) {
            return LOW_BACKSLASH;
        }
        return low ? INVALID : STRING;
    }

    /**
     * Checks the UTF-8 sequence starting at {@code b[i]} (a byte of 0x80 or more): its length
     * when it is well-formed and whole before {@code end}; 0 when it is well-formed so far but
     * continues in the next piece (the state to go on with is set); -1 when it is ill-formed.
     */
    private int multiByte(byte[] b, int i, int end) {
        int lead = b[i] & 0xFF;
        int need;
        int low = 0x80;
        int high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            need = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            need = 2;
            if (lead == 0xE0) {
                low = 0xA0;
            } else if (lead == 0xED) {
                high = 0x9F; // no encoded surrogates
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            need = 3;
            if (lead == 0xF0) {
                low = 0x90;
            } else if (lead == 0xF4) {
                high = 0x8F; // nothing past U+10FFFF
            }
        } else {
            return -1;
        }
        for (int k = 1; k <= need; k++) {
            if (i + k == end) {
                utf8Left = need - k + 1;
                utf8Low = low;
                utf8High = high;
                return 0;
            }
            int c = b[i + k] & 0xFF;
            if (c < low || c > high) {
                return -1;
            }
            low = 0x80;
            high = 0xBF;
        }
        return need + 1;
    }
}
