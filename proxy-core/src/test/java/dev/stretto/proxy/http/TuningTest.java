package dev.stretto.proxy.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TuningTest {

    private final Tuning tuning = new Tuning(Duration.ofMillis(100), Duration.ofMillis(1000), 5, Duration.ofSeconds(1));

    @Test
    void aStreamThatCarriedEventsIsReopenedAfterTheServersHint() {
        assertEquals(Duration.ofMillis(100), tuning.delay(0, -1));
        assertEquals(Duration.ofMillis(5), tuning.delay(0, 5));
        assertEquals(Duration.ZERO, tuning.delay(0, 0));
    }

    @Test
    void failedAttemptsBackOffExponentiallyUpToTheCap() {
        assertEquals(Duration.ofMillis(100), tuning.delay(1, -1));
        assertEquals(Duration.ofMillis(200), tuning.delay(2, -1));
        assertEquals(Duration.ofMillis(400), tuning.delay(3, -1));
        assertEquals(Duration.ofMillis(1000), tuning.delay(10, -1));
        assertEquals(Duration.ofMillis(1000), tuning.delay(Integer.MAX_VALUE, 600));
    }

    @Test
    void failedAttemptsBackOffEvenAfterATinyOrZeroRetryHint() {
        // "retry: 0" once, then refusals: without a floor the doubling of 0 stays 0, a busy loop.
        for (int failures = 1; failures <= 20; failures++) {
            assertTrue(tuning.delay(failures, 0).toMillis() >= 100, "failures " + failures);
            assertTrue(tuning.delay(failures, 1).toMillis() >= 100, "failures " + failures);
        }
        assertEquals(Duration.ofMillis(400), tuning.delay(3, 0));
        assertEquals(Duration.ofMillis(1000), tuning.delay(20, 0));
    }

    @Test
    void aLargerRetryHintIsHonouredWhileBackingOff() {
        assertEquals(Duration.ofMillis(300), tuning.delay(1, 300));
        assertEquals(Duration.ofMillis(600), tuning.delay(2, 300));
    }
}
