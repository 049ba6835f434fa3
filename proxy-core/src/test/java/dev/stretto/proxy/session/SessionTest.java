package dev.stretto.proxy.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.testing.HostStreams;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The session with an upstream that behaves as the HTTP one will: no child process. */
class SessionTest {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final List<String> events = new CopyOnWriteArrayList<>();

    private final Recorder recorder = new Recorder() {
        @Override
        public boolean record(Source from, Line line) {
            events.add("record " + from.wireName() + " " + new String(line.bytes(), StandardCharsets.UTF_8));
            return true;
        }

        @Override
        public void close() {
            events.add("recorder closed");
        }
    };

    /** Answers each line after the host's input ended, like an HTTP upstream finishing its requests. */
    private class HttpLike implements Upstream {
        final CountDownLatch inputEnded = new CountDownLatch(1);
        final CountDownLatch companionStarted = new CountDownLatch(1);
        final CountDownLatch companionStopped = new CountDownLatch(1);
        final List<String> sent = new CopyOnWriteArrayList<>();
        ServerLineSink sink;

        @Override
        public void start(ServerLineSink toHost, java.util.concurrent.Executor work) {
            sink = toHost;
        }

        @Override
        public void send(byte[] line, boolean newline) {
            String s = new String(line, StandardCharsets.UTF_8);
            events.add("send " + s);
            sent.add(s);
        }

        @Override
        public void endOfInput() {
            inputEnded.countDown();
        }

        @Override
        public int awaitEnd() throws InterruptedException {
            assertTrue(inputEnded.await(10, TimeUnit.SECONDS), "no end of input");
            if (!companions().isEmpty()) {
                assertTrue(companionStarted.await(10, TimeUnit.SECONDS), "the companion never ran");
            }
            for (String s : sent) {
                sink.line(("re " + s).getBytes(StandardCharsets.UTF_8), true);
            }
            return 0;
        }

        @Override
        public List<Callable<Void>> companions() {
            return List.of(() -> {
                sink.line("from get".getBytes(StandardCharsets.UTF_8), true);
                companionStarted.countDown();
                try {
                    new CountDownLatch(1).await();
                } finally {
                    companionStopped.countDown();
                }
                return null;
            });
        }

        @Override
        public void abort() {
            events.add("abort");
        }

        @Override
        public ServerEnd serverEnd() {
            return ServerEnd.FINISHED;
        }
    }

    private int run(Upstream up, InputStream in, ByteArrayOutputStream out) {
        return assertTimeoutPreemptively(LIMIT, () -> {
            try (HostInput input = HostInput.start(in, "test-stdin")) {
                return new Session("test-session", up, recorder, null, input, out, java.time.Duration.ofSeconds(5)).run().status();
            }
        });
    }

    @Test
    void theSessionEndsWhenTheUpstreamEndsNotWhenTheHostsInputDoes() throws Exception {
        HttpLike up = new HttpLike();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = run(up, new ByteArrayInputStream("a\nb\n".getBytes(StandardCharsets.UTF_8)), out);
        assertEquals(0, status);
        String host = out.toString(StandardCharsets.UTF_8);
        assertTrue(host.replace("from get\n", "").equals("re a\nre b\n"), host);
        assertTrue(host.contains("from get\n"), host);
        assertTrue(up.companionStopped.await(1, TimeUnit.SECONDS), "the companion was not stopped");
        assertTrue(events.indexOf("record client a") < events.indexOf("send a"), "sent before recorded");
        assertTrue(events.indexOf("record client b") < events.indexOf("send b"), "sent before recorded");
        assertTrue(events.indexOf("record server re a") >= 0);
        assertTrue(events.contains("recorder closed") && events.contains("abort"), events.toString());
    }

    @Test
    void anUpstreamThatFailsToTakeALineFailsTheSessionRatherThanEndingTheHostsInput() {
        Upstream broken = new HttpLike() {
            @Override
            public void send(Line line, boolean more) throws IOException {
                throw new IOException("the server's input is broken");
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = run(broken, new ByteArrayInputStream("a\nb\n".getBytes(StandardCharsets.UTF_8)), out);
        assertEquals(125, status);
        assertEquals("", out.toString(StandardCharsets.UTF_8).replace("from get\n", ""));
        assertTrue(events.contains("record client a") && !events.contains("record client b"), events.toString());
    }

    @Test
    void theSessionEndsPromptlyWhenTheUpstreamEndsFirst() {
        Upstream quits = new HttpLike() {
            @Override
            public int awaitEnd() {
                sink.line("bye".getBytes(StandardCharsets.UTF_8), false);
                return 42;
            }

            @Override
            public List<Callable<Void>> companions() {
                return List.of();
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream neverEnds = hostThatNeverCloses();
        assertEquals(42, run(quits, neverEnds, out));
        assertEquals("bye", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailingForkEndsTheSessionWithTheProxysOwnStatus() {
        Upstream breaks = new HttpLike() {
            @Override
            public List<Callable<Void>> companions() {
                return List.of(() -> {
                    throw new IllegalStateException("stream broke");
                });
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream neverEnds = hostThatNeverCloses();
        assertEquals(125, run(breaks, neverEnds, out));
        assertTrue(events.contains("abort"));
    }

    @Test
    void aHostThatStopsReadingCannotKeepTheSessionFromEnding() throws Exception {
        CountDownLatch handedOn = new CountDownLatch(1);
        Upstream talksAndQuits = new HttpLike() {
            @Override
            public int awaitEnd() throws InterruptedException {
                // Lines are handed on by a reader of the server's output, as a child's are; the
                // host's pipe fills, the reader waits for it, and the server exits meanwhile.
                Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 100; i++) {
                        sink.line(("line " + i).getBytes(StandardCharsets.UTF_8), true);
                        handedOn.countDown();
                    }
                });
                assertTrue(handedOn.await(10, TimeUnit.SECONDS), "no line was handed on");
                return 4;
            }

            @Override
            public List<Callable<Void>> companions() {
                return List.of();
            }
        };
        java.io.OutputStream stuck = HostStreams.neverRead();
        int status = assertTimeoutPreemptively(LIMIT, () -> {
            try (HostInput input = HostInput.start(hostThatNeverCloses(), "test-stdin")) {
                return new Session("test-session", talksAndQuits, recorder, null, input, stuck,
                        Duration.ofMillis(200)).run().status();
            }
        });
        assertEquals(4, status, "the server's status, although the host took nothing");
        assertTrue(events.contains("record server line 0"), events.toString());
    }

    /** A host that keeps its end open: a read blocks until the reading thread is interrupted. */
    private static InputStream hostThatNeverCloses() {
        return new InputStream() {
            @Override
            public int read() {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
    }
}
