package dev.stretto.proxy.upstream;

import dev.stretto.proxy.io.Line;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The server's input as the host's lines are written to it: each line with its terminator,
 * flushed when asked (lines that follow one another at once go out in one write), or the host's
 * bytes as they came, when nothing is recorded. Once a
 * write fails (the server closed its input or exited) what it can no longer read is dropped:
 * {@code onBroken} hears of the first failure, and later lines are not written at all. The
 * session ends when the server's output does. One writer at a time.
 */
final class ServerInput {
    private final OutputStream out;
    private final Consumer<IOException> onBroken;
    private final AtomicBoolean broken = new AtomicBoolean();

    ServerInput(OutputStream out, Consumer<IOException> onBroken) {
        this.out = out;
        this.onBroken = onBroken;
    }

    /** Writes {@code length} bytes of {@code bytes} from {@code offset}, as they are, and flushes. */
    void write(byte[] bytes, int offset, int length) {
        if (broken.get()) {
            return;
        }
        try {
            out.write(bytes, offset, length);
            out.flush();
        } catch (IOException e) {
            if (broken.compareAndSet(false, true)) {
                onBroken.accept(e);
            }
        }
    }

    /** Writes {@code line} (none if null), then flushes if {@code flush}. */
    void write(Line line, boolean flush) {
        if (broken.get()) {
            return;
        }
        try {
            if (line != null) {
                line.writeTo(out);
                if (line.terminated()) {
                    out.write('\n');
                }
            }
            if (flush) {
                out.flush();
            }
        } catch (IOException e) {
            if (broken.compareAndSet(false, true)) {
                onBroken.accept(e);
            }
        }
    }
}
