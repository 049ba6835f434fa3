package dev.stretto.trace.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decides how a line from the wire is logged: as {@code message} or as {@code raw} text. This
 * runs on the log writer's thread, never on the forwarding path.
 *
 * <p>The rule, which every reader of a log depends on: a message is spliced into the log line
 * as it is, so it must be JSON that <em>any</em> JSON reader accepts, or one line would make
 * the whole log unreadable. After its terminator is removed and surrounding ASCII white space
 * (space, tab, LF, CR, form feed) is trimmed, a line is a message only when its bytes
 * <ol>
 *   <li>are well-formed UTF-8 (RFC 8259 section 8.1) and do not start with a byte order mark;</li>
 *   <li>are exactly one JSON text by RFC 8259's grammar: nothing before or after the value, white
 *       space between tokens only of the four kinds JSON allows, no control character (NUL
 *       included) unescaped in a string or anywhere outside one, no comments, single quotes,
 *       leading zeros, NaN or trailing commas;</li>
 *   <li>read back where the reference reads logs (serde_json): every escaped surrogate is part
 *       of a pair, every number is finite as a double, and arrays and objects nest at most
 *       126 deep (the entry around the message is one more level, and
 *       serde_json stops at 128).</li>
 * </ol>
 * Anything else is raw: the line's text without its terminator, each ill-formed UTF-8
 * sequence replaced as {@link LossyUtf8} does. So UTF-16 or UTF-32 JSON ({@code {\0}\0}), a
 * BOM before JSON, or {@code 1\0} are raw, although Jackson on its own would detect the
 * encoding of the first two and read them.
 */
public final class LineClassifier {

    // Lines of many megabytes are normal (a large tools/list or file read), so Jackson's
    // default length limits must not turn a valid message into raw text.
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxDocumentLength(-1)
                    .build())
            .build();

    /**
     * serde_json stops at its 128th level of nesting, and the log entry around a message is
     * one level itself: the entry must read back, so a message may nest 126 levels deep.
     */
    private static final int MAX_MESSAGE_DEPTH = 126;

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private LineClassifier() {
    }

    /** Classifies a whole array; see {@link #classify(byte[], int, int)}. */
    public static Payload classify(byte[] line) {
        return classify(line, 0, line.length);
    }

    /**
     * Classifies {@code len} bytes of {@code buf} from {@code off}: one line, with or without
     * its terminator.
     *
     * @return a {@link Payload.Message} holding the line's own text trimmed of surrounding
     *         white space when the line is one JSON text by the rule on this class; otherwise a
     *         {@link Payload.Raw} with the line's text, its terminator removed and ill-formed
     *         UTF-8 replaced by U+FFFD
     */
    public static Payload classify(byte[] buf, int off, int len) {
        int end = off + len;
        while (end > off && (buf[end - 1] == '\n' || buf[end - 1] == '\r')) {
            end--;
        }
        int start = off;
        int stop = end;
        while (start < stop && isAsciiWhitespace(buf[start])) {
            start++;
        }
        while (stop > start && isAsciiWhitespace(buf[stop - 1])) {
            stop--;
        }
        if (stop > start) {
            String text = decodeStrict(buf, start, stop - start);
            // The text, not the bytes, goes to the parser: given bytes, Jackson guesses UTF-16
            // and UTF-32 from NULs and skips a byte order mark, and would call such lines JSON.
            if (text != null && text.charAt(0) != BYTE_ORDER_MARK && isOneJsonText(text)) {
                return new Payload.Message(text);
            }
        }
        return new Payload.Raw(LossyUtf8.decode(buf, off, end - off));
    }

    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }

    /** Rules 2 and 3 of the class comment, for text already known to be well-formed. */
    private static boolean isOneJsonText(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken t = p.nextToken();
            int depth = 0;
            while (t != null) {
                switch (t) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > MAX_MESSAGE_DEPTH) {
                            return false;
                        }
                    }
                    case END_OBJECT, END_ARRAY -> depth--;
                    case FIELD_NAME, VALUE_STRING -> {
                        if (hasUnpairedSurrogate(p.getText())) {
                            return false;
                        }
                    }
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                        if (!Double.isFinite(p.getDoubleValue())) {
                            return false;
                        }
                    }
                    default -> {
                    }
                }
                if (depth == 0) {
                    return p.nextToken() == null;
                }
                t = p.nextToken();
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static String decodeStrict(byte[] buf, int off, int len) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(buf, off, len))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
