package dev.stretto.proxy.listen;

import dev.stretto.proxy.record.SessionId;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names and ids of one listener's sessions: the name {@code <UTC start>-<pid>-<n>}, which
 * names the log, {@code n} counting from 1; the {@code Mcp-Session-Id}, 128 bits from a
 * strong random source as 32 hex digits (visible ASCII, as the transport requires), which a
 * host cannot guess.
 */
final class SessionNames {
    private final AtomicLong count = new AtomicLong();
    private final SecureRandom random = new SecureRandom();
    private final long pid = ProcessHandle.current().pid();

    String next(Instant start) {
        return SessionId.of(start, pid) + "-" + count.incrementAndGet();
    }

    String newId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
