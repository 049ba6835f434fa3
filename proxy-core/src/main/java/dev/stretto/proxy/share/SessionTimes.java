package dev.stretto.proxy.share;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Moves a session's start back in time: its {@code started_unix_ms} and its id, which begins
 * with the start in UTC ({@code 20260928T020400.548Z-14457}) and names its files. The shift is
 * a whole number of days from 1 to 3650, drawn from the key, so that every session of a run
 * (and of every run with that key) moves alike: their order, their overlaps and their times of
 * day stay.
 */
final class SessionTimes {

    private static final Pattern ID = Pattern.compile("(\\d{8}T\\d{6}\\.\\d{3}Z)(.*)", Pattern.DOTALL);
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final long DAY_MS = 86_400_000L;

    private final long shiftMs;

    SessionTimes(Keyed keyed) {
        this.shiftMs = -(1 + keyed.draws("stretto-redact", "start-time-shift").below(3650)) * DAY_MS;
    }

    long shift(long unixMs) {
        return unixMs + shiftMs;
    }

    /** The id with its start moved, or the id itself when it is not of the proxy's form. */
    String shift(String sessionId) {
        Matcher m = ID.matcher(sessionId);
        if (!m.matches()) {
            return sessionId;
        }
        try {
            Instant start = FORMAT.parse(m.group(1), Instant::from);
            return FORMAT.format(start.plusMillis(shiftMs)) + m.group(2);
        } catch (DateTimeParseException e) {
            return sessionId;
        }
    }
}
