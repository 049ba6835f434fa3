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

    /**
     * The id of a session that started at {@code start} in process {@code pid} and has no log
     * file to make its id unique by name: {@link #of} with a suffix {@code -<n>} no other
     * session of this JVM gets, so that sessions recorded only in memory, started in the same
     * millisecond, stay apart. The JVM numbers every thread it creates and never reuses a
     * number; drawing one (an unstarted virtual thread costs next to nothing) needs no counter
     * of our own, and proxy-core keeps no static state.
     */
    public static String unique(Instant start, long pid) {
        return of(start, pid) + "-" + Thread.ofVirtual().unstarted(() -> { }).threadId();
    }
}
