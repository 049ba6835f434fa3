package dev.stretto.cli.console;

import dev.stretto.cli.console.html.Format;
import dev.stretto.cli.console.html.SessionPage;
import dev.stretto.cli.console.source.FileState;
import dev.stretto.cli.console.source.Found;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.SessionRead;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A session followed as its proxy writes it, as server-sent events: at once, and whenever its
 * log, flow log or judge log changes, a {@code timeline} event holding the page's body anew;
 * when the proxy has exited, an {@code ended} event saying so, after which the stream closes.
 * A comment every few seconds finds out when the browser has gone.
 */
final class LiveFeed {

    /** How often the files are looked at. */
    static final long TICK_MS = 200;
    private static final long PING_MS = 10_000;

    private final Found found;
    private final ProxyEngine engine;
    private final BooleanSupplier stopped;

    LiveFeed(Found found, ProxyEngine engine, BooleanSupplier stopped) {
        this.found = found;
        this.engine = engine;
        this.stopped = stopped;
    }

    /** Writes events to {@code out} until the session ends, the browser goes or the console stops. */
    void stream(OutputStream out) throws IOException, InterruptedException {
        out.write("retry: 2000\n\n".getBytes(StandardCharsets.UTF_8));
        String seen = null;
        SessionRead read = null;
        long lastWrite = System.nanoTime();
        while (!stopped.getAsBoolean()) {
            String now = states();
            if (!now.equals(seen)) {
                read = readOrEnd(out);
                if (read == null) {
                    return;
                }
                seen = now;
                event(out, "timeline", SessionPage.fragment(read, engine, read.recording()));
                lastWrite = System.nanoTime();
            }
            if (!read.recording()) {
                // The proxy may have written its last lines after the read above.
                if (!states().equals(seen)) {
                    read = readOrEnd(out);
                    if (read == null) {
                        return;
                    }
                    event(out, "timeline", SessionPage.fragment(read, engine, false));
                }
                long end = read.log().header().startedUnixMs() + read.timeline().endMs();
                event(out, "ended", "The session ended: its proxy has exited. Its last line was written at "
                        + Format.duration(read.timeline().endMs()) + " (" + timeOf(end) + " UTC).");
                return;
            }
            if (System.nanoTime() - lastWrite > TimeUnit.MILLISECONDS.toNanos(PING_MS)) {
                out.write(": ping\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                lastWrite = System.nanoTime();
            }
            Thread.sleep(TICK_MS);
        }
    }

    /** The session read now, or null after an {@code ended} event saying why it cannot be. */
    private SessionRead readOrEnd(OutputStream out) throws IOException {
        try {
            return SessionRead.of(found, engine);
        } catch (IOException e) {
            event(out, "ended", "The log can no longer be read: " + e.getMessage());
            return null;
        }
    }

    private static String timeOf(long unixMs) {
        return java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC)
                .format(java.time.Instant.ofEpochMilli(unixMs));
    }

    /** The sizes and times of the log and the files beside it, as one string to compare. */
    private String states() {
        return FileState.of(found.path()) + "|" + FileState.of(found.flowLogPath()) + "|" + FileState.of(found.judgeLogPath());
    }

    /** One event: each line of the data on a {@code data:} line of its own. */
    static void event(OutputStream out, String name, String data) throws IOException {
        StringBuilder b = new StringBuilder(data.length() + 64).append("event: ").append(name).append('\n');
        for (String line : data.split("\r\n|\r|\n", -1)) {
            b.append("data: ").append(line).append('\n');
        }
        b.append('\n');
        out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
