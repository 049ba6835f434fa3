package dev.stretto.proxy.record;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Session ids: the UTC start time to the millisecond, then {@code -} and the proxy's process
 * id, e.g. {@code 20260923T212000.123Z-4242}. The id names the session's log file.
 */
public final class SessionId {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private SessionId() {
    }

    /** The id of a session that started at {@code start} in process {@code pid}. */
    public static String of(Instant start, long pid) {
        return FORMAT.format(start) + "-" + pid;
    }
}
