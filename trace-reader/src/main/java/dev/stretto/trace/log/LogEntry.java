package dev.stretto.trace.log;

import java.util.Objects;

/**
 * One line of a session log after the header: when the proxy read a line, from whom, and
 * the line itself.
 *
 * @param tMs     milliseconds after the proxy started; never decreases down a log
 * @param from    who sent the line
 * @param payload the line, as a JSON value or as text
 */
public record LogEntry(long tMs, Source from, Payload payload) {

    /**
     * Checks the entry.
     *
     * @throws NullPointerException when {@code from} or {@code payload} is null
     */
    public LogEntry {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(payload, "payload");
    }

    /**
     * The entry's JSON line (without the newline), fields in the reference's order:
     * {@code t_ms}, {@code from}, then {@code message} spliced in verbatim or {@code raw}.
     *
     * @return the line
     */
    public String toJson() {
        StringBuilder out = new StringBuilder(64 + switch (payload) {
            case Payload.Message m -> m.json().length();
            case Payload.Raw r -> r.text().length() + 16;
        });
        out.append("{\"t_ms\":").append(tMs).append(",\"from\":\"").append(from.wireName()).append('"');
        switch (payload) {
            case Payload.Message m -> out.append(",\"message\":").append(m.json());
            case Payload.Raw r -> {
                out.append(",\"raw\":");
                JsonText.appendQuoted(out, r.text());
            }
        }
        return out.append('}').toString();
    }
}
