package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server writer sends lines queued one behind another with {@code more}, so a buffering
 * upstream writes them in one go, and writes out what it buffered before it waits for the
 * next line and before the server's input ends: no line sits in a buffer while the writer
 * waits.
 */
class ServerWriterTest {

    private static final long WAIT_S = 30;

    /** An upstream that notes what the writer asks of it, in order. */
    private static final class Noting implements Upstream {
        final List<String> done = new CopyOnWriteArrayList<>();
        final BlockingQueue<String> flushed = new LinkedBlockingQueue<>();

        @Override
        public void start(ServerLineSink toHost, Executor work) {
        }

        @Override
        public void send(byte[] line, boolean newline) {
            throw new AssertionError("lines are sent with send(Line, more)");
        }

        @Override
        public void send(Line line, boolean more) {
            String text = new String(line.bytes(), StandardCharsets.UTF_8);
            done.add(more ? "send " + text + " +" : "send " + text);
            if (!more) {
                flushed.add(text);
            }
        }

        @Override
        public void flush() {
            done.add("flush");
            flushed.add("flush");
        }

        @Override
        public void endOfInput() {
            done.add("end");
            flushed.add("end");
        }

        @Override
        public int awaitEnd() {
            return 0;
        }

        @Override
        public void abort() {
        }

        @Override
        public ServerEnd serverEnd() {
            return null;
        }
    }

    private static ServerWriter.Write write(String text) {
        return new ServerWriter.Write(text.getBytes(StandardCharsets.UTF_8), true, 0);
    }

    @Test
    void linesQueuedTogetherGoOutTogetherAndTheBufferIsWrittenOutBeforeTheInputEnds() throws Exception {
        LineQueue<ServerWriter.Item> queue = ServerWriter.queue(() -> { });
        Noting upstream = new Noting();
        queue.put(write("a"));
        queue.put(write("b"));
        queue.put(write("c"));
        queue.put(new ServerWriter.EndOfInput());
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                new ServerWriter(queue, upstream, Recorder.NONE).call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals("flush", upstream.flushed.poll(WAIT_S, TimeUnit.SECONDS));
        assertEquals("end", upstream.flushed.poll(WAIT_S, TimeUnit.SECONDS));
        queue.close();
        writer.join(Duration.ofSeconds(WAIT_S));
        assertFalse(writer.isAlive());
        assertEquals(List.of("send a +", "send b +", "send c +", "flush", "end"), upstream.done);
    }

    @Test
    void aLineWithNothingQueuedBehindItIsWrittenOutBeforeTheWriterWaits() throws Exception {
        LineQueue<ServerWriter.Item> queue = ServerWriter.queue(() -> { });
        Noting upstream = new Noting();
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                new ServerWriter(queue, upstream, Recorder.NONE).call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        queue.put(write("alone"));
        assertEquals("alone", upstream.flushed.poll(WAIT_S, TimeUnit.SECONDS), "sent without more: not buffered");
        queue.put(write("next"));
        assertEquals("next", upstream.flushed.poll(WAIT_S, TimeUnit.SECONDS));
        queue.close();
        writer.join(Duration.ofSeconds(WAIT_S));
        assertFalse(writer.isAlive());
        assertEquals(List.of("send alone", "send next"), upstream.done);
    }
}
