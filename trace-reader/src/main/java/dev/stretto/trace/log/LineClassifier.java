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
 * Decides how a line from the wire is logged: as {@code message} when it is exactly one
 * JSON value (batches included), else as {@code raw} text. This runs on the log writer's
 * thread, never on the forwarding path.
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
     *         whitespace when the line is exactly one JSON value in valid UTF-8; otherwise a
     *         {@link Payload.Raw} with the line's text, its terminator removed and invalid
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
        if (stop > start && isOneJsonValue(buf, start, stop - start)) {
            String strict = decodeStrict(buf, start, stop - start);
            if (strict != null) {
                return new Payload.Message(strict);
            }
        }
        return new Payload.Raw(new String(buf, off, end - off, StandardCharsets.UTF_8));
    }

    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }

    /**
     * Whether the bytes are exactly one JSON value that the reference's reader (serde_json)
     * reads back too, as the specification asks of a message: no unpaired surrogate escape
     * in a string or key, no number beyond the double range, and no deeper nesting than
     * {@link #MAX_MESSAGE_DEPTH}. Anything else would make that reader reject the whole log.
     */
    private static boolean isOneJsonValue(byte[] buf, int off, int len) {
        try (JsonParser p = JSON.createParser(buf, off, len)) {
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
