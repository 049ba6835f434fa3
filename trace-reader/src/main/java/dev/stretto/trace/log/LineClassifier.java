package dev.stretto.trace.log;

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
 * BOM before JSON, or {@code 1\0} are raw, although a JSON library given bytes might detect
 * the encoding of the first two and read them.
 *
 * <p>{@link MessageCheck} checks the rule in one pass over the bytes, and {@link EntryWriter}
 * writes entries with it straight from a line's bytes; the payloads here are for readers that
 * want the line as text.
 */
public final class LineClassifier {

    private LineClassifier() {
    }

    /**
     * Classifies a whole array; see {@link #classify(byte[], int, int)}.
     *
     * @param line the line's bytes
     * @return the line as a message or as raw text
     */
    public static Payload classify(byte[] line) {
        return classify(line, 0, line.length);
    }

    /**
     * Classifies a line held in pieces; see {@link #classify(byte[], int, int)}.
     *
     * @param line the line's bytes
     * @return the line as a message or as raw text
     */
    public static Payload classify(LineBytes line) {
        if (line.pieceCount() == 1) {
            return classify(line.piece(0), 0, line.pieceLength(0));
        }
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < line.pieceCount(); i++) {
            all.write(line.piece(i), 0, line.pieceLength(i));
        }
        return classify(all.toByteArray());
    }

    /**
     * Classifies {@code len} bytes of {@code buf} from {@code off}: one line, with or without
     * its terminator.
     *
     * @param buf where the line is
     * @param off where it starts in {@code buf}
     * @param len how many bytes it has
     * @return a {@link Payload.Message} holding the line's own text trimmed of surrounding
     *         white space when the line is one JSON text by the rule on this class; otherwise a
     *         {@link Payload.Raw} with the line's text, its terminator removed and ill-formed
     *         UTF-8 replaced by U+FFFD
     */
    public static Payload classify(byte[] buf, int off, int len) {
        int end = withoutTerminator(buf, off, len);
        MessageCheck check = check(buf, off, end);
        if (check.isMessage()) {
            int start = off + (int) check.messageStart();
            return new Payload.Message(new String(buf, start, (int) (check.messageEnd() - check.messageStart()),
                    StandardCharsets.UTF_8));
        }
        return new Payload.Raw(LossyUtf8.decode(buf, off, end - off));
    }

    /**
     * Whether {@link #classify(byte[])} makes {@code line} a {@link Payload.Message}, without
     * decoding its text: for a caller that only needs to know, on every line.
     *
     * @param line the line's bytes
     * @return whether it is a message
     */
    public static boolean isMessage(byte[] line) {
        return check(line, 0, withoutTerminator(line, 0, line.length)).isMessage();
    }

    private static int withoutTerminator(byte[] buf, int off, int len) {
        int end = off + len;
        while (end > off && (buf[end - 1] == '\n' || buf[end - 1] == '\r')) {
            end--;
        }
        return end;
    }

    private static MessageCheck check(byte[] buf, int off, int end) {
        MessageCheck check = new MessageCheck();
        check.update(buf, off, end - off);
        return check;
    }
}
