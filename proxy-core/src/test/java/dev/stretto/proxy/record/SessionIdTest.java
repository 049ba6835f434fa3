package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SessionIdTest {

    @Test
    void idIsUtcStartToTheMillisecondThenPid() {
        assertEquals("20260923T212000.123Z-4242", SessionId.of(Instant.ofEpochMilli(1790198400123L), 4242));
    }

    @Test
    void wholeSecondsStillShowThreeDigitsOfMilliseconds() {
        String id = SessionId.of(Instant.parse("2026-01-02T03:04:05Z"), 7);
        assertEquals("20260102T030405.000Z-7", id);
        assertTrue(id.matches("\\d{8}T\\d{6}\\.\\d{3}Z-\\d+"));
    }
}
