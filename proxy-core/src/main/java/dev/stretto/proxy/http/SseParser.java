package dev.stretto.proxy.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code text/event-stream} body event by event, following the WHATWG rules: lines
 * end in LF, CRLF or a lone CR; a blank line dispatches the event; lines starting with
 * {@code ':'} are comments; one space after the field's colon is dropped; several
 * {@code data:} lines are joined with LF; {@code id:} persists until changed (a value holding
 * NUL is ignored); {@code retry:} takes only ASCII digits; unknown fields are ignored. An
 * event with no {@code data:} line at all is not dispatched; one with an empty {@code data:}
 * is (the MCP priming event), so the caller sees its id.
 *
 * <p>Lines have no length limit: MCP results of several megabytes arrive as one data line.
 * Not thread-safe; one reader thread per stream.
 */
final class SseParser {

    private final InputStream in;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int limit;
    private boolean eof;
    private boolean lastWasCr;
    private boolean atStart = true;

    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String type;
    private String lastEventId;
    private String ownId;
    private long retryMillis = -1;
    private boolean pendingFields;
    private boolean endedMidEvent;

    SseParser(InputStream in) {
        this.in = in;
    }

    /** The next event, or null at the end of the stream. */
    SseEvent next() throws IOException {
        String text;
        while ((text = readLine()) != null) {
            if (text.isEmpty()) {
                SseEvent event = dispatch();
                if (event != null) {
                    return event;
                }
                continue;
            }
            if (text.charAt(0) == ':') {
                continue;
            }
            pendingFields = true;
            int colon = text.indexOf(':');
            String field = colon < 0 ? text : text.substring(0, colon);
            String value = "";
            if (colon >= 0) {
                int start = colon + 1;
                if (start < text.length() && text.charAt(start) == ' ') {
                    start++;
                }
                value = text.substring(start);
            }
            field(field, value);
        }
        endedMidEvent = pendingFields;
        return null;
    }

    /** The last event id the stream set, or null; an empty {@code id:} clears it. */
    String lastEventId() {
        return lastEventId == null || lastEventId.isEmpty() ? null : lastEventId;
    }

    /** The last {@code retry:} hint in milliseconds, or -1 when the stream gave none. */
    long retryMillis() {
        return retryMillis;
    }

    /** True when the stream ended after some fields of an event that was never dispatched. */
    boolean endedMidEvent() {
        return endedMidEvent;
    }

    private void field(String name, String value) {
        switch (name) {
            case "event" -> type = value;
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                    ownId = value.isEmpty() ? null : value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    try {
                        retryMillis = Long.parseLong(value);
                    } catch (NumberFormatException tooLong) {
                        // Digits beyond a long are no usable hint; keep the previous one.
                    }
                }
            }
            default -> {
                // Unknown fields are ignored, as the format requires.
            }
        }
    }

    private SseEvent dispatch() {
        pendingFields = false;
        String id = ownId;
        ownId = null;
        if (!hasData) {
            type = null;
            return null;
        }
        SseEvent event = new SseEvent(id, type == null || type.isEmpty() ? "message" : type, data.toString());
        data.setLength(0);
        hasData = false;
        type = null;
        return event;
    }

    /** One line decoded as UTF-8, without its terminator; null at the end of the stream. */
    private String readLine() throws IOException {
        line.reset();
        while (true) {
            if (pos == limit) {
                if (eof || !fill()) {
                    eof = true;
                    // A last line without a terminator still counts as fields of an event that
                    // is never dispatched (the format discards such an event).
                    if (line.size() > 0) {
                        return decode();
                    }
                    return null;
                }
            }
            byte b = buf[pos++];
            if (lastWasCr) {
                lastWasCr = false;
                if (b == '\n') {
                    continue;
                }
            }
            if (b == '\n') {
                return decode();
            }
            if (b == '\r') {
                lastWasCr = true;
                return decode();
            }
            // Copy runs of plain bytes at once: data lines can be megabytes long.
            int start = pos - 1;
            int end = start + 1;
            while (end < limit && buf[end] != '\n' && buf[end] != '\r') {
                end++;
            }
            line.write(buf, start, end - start);
            pos = end;
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private String decode() {
        String text = line.toString(StandardCharsets.UTF_8);
        if (atStart) {
            atStart = false;
            // A byte order mark at the very start is not part of the first field. It is looked
            // for in the first line, not the first read: a read may hold fewer than its 3 bytes.
            if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
                return text.substring(1);
            }
        }
        return text;
    }
}
