package dev.stretto.proxy.http;

import java.time.Duration;

/**
 * Reconnection pacing: the first delay when the server gave no {@code retry:} hint, the cap of
 * the exponential backoff, and how many fruitless attempts a POST stream's resumption gets;
 * and how long a request's stream may stay open once the request is answered (on that stream
 * or another) before the proxy closes it. Tests shorten the delays; the defaults follow the
 * reference clients.
 */
record Tuning(Duration initialDelay, Duration maxDelay, int resumeAttempts, Duration answeredGrace) {

    /** The least base of the backoff once attempts fail (less when the initial delay is less). */
    static final Duration FAILED_BASE_FLOOR = Duration.ofMillis(100);

    static final Tuning DEFAULT = new Tuning(Duration.ofSeconds(1), Duration.ofSeconds(30), 5, Duration.ofSeconds(1));

    /**
     * The delay before the next attempt.
     *
     * @param failures    attempts in a row that went nowhere (0 after a stream that carried events)
     * @param retryMillis the server's last {@code retry:} hint, or -1; after failures the delay
     *                    starts from at least {@link #FAILED_BASE_FLOOR} (or the initial delay)
     */
    Duration delay(int failures, long retryMillis) {
        long base = retryMillis >= 0 ? retryMillis : initialDelay.toMillis();
        if (failures > 0) {
            // The hint paces a healthy stream; once attempts fail, a hint of 0 or 1 ms must not
            // turn the backoff (which doubles the base) into a busy loop against a refusing server.
            base = Math.max(base, Math.min(initialDelay.toMillis(), FAILED_BASE_FLOOR.toMillis()));
        }
        long cap = maxDelay.toMillis();
        long delay = base;
        for (int i = 1; i < failures && delay < cap; i++) {
            delay *= 2;
        }
        return Duration.ofMillis(Math.min(delay, cap));
    }
}
