package dev.stretto.proxy.testing;

import dev.stretto.proxy.StderrMessages;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What the proxy says on stderr while a test runs: {@link System#err} is captured (the default
 * message handler writes there, {@code stretto-proxy: } first) and put back on {@link #close()}.
 */
public final class Stderr implements AutoCloseable {
    private final PrintStream saved = System.err;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** Captures {@link System#err} from now on. */
    public Stderr() {
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }

    /** Everything said so far (once the default handler's queue has written it). */
    public String text() {
        StderrMessages.flush(Duration.ofSeconds(10));
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        StderrMessages.flush(Duration.ofSeconds(10));
        System.setErr(saved);
    }
}
