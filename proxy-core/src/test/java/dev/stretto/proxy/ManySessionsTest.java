package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 13: with more than about 255 sessions in one JVM whose servers are child processes,
 * every virtual thread stopped for good. A read of a pipe cannot unmount a virtual thread, so
 * it holds a carrier, and the scheduler has at most 256 of them by default. This runs 1,000
 * sessions at once, each started on a virtual thread as a harness would, with {@code cat} as
 * the server, under the scheduler's default settings.
 */
class ManySessionsTest {
    private static final int SESSIONS = 1000;
    private static final Duration LIMIT = Duration.ofMinutes(4);

    @Test
    void aThousandConcurrentSessionsWithChildServersAreAllAnsweredUnderTheDefaultScheduler() throws Exception {
        assertNull(System.getProperty("jdk.virtualThreadScheduler.maxPoolSize"),
                "this test is about the default scheduler: no maxPoolSize");
        assertNull(System.getProperty("jdk.virtualThreadScheduler.parallelism"),
                "this test is about the default scheduler: no parallelism");
        CountDownLatch answered = new CountDownLatch(SESSIONS);
        CountDownLatch ended = new CountDownLatch(SESSIONS);
        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < SESSIONS; i++) {
            String request = "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}";
            Thread.ofVirtual().name("harness-" + i).start(() -> {
                try {
                    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
                    OpenInput in = new OpenInput((request + "\n").getBytes(StandardCharsets.UTF_8));
                    // The host closes its side once it has its answer, as a harness ends a session.
                    Thread.ofVirtual().start(() -> {
                        try {
                            String answer = lines.poll(LIMIT.toSeconds(), TimeUnit.SECONDS);
                            if (request.equals(answer)) {
                                answered.countDown();
                            } else {
                                wrong.add("answer " + answer + " to " + request);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            in.close();
                        }
                    });
                    int status = Proxy.run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).build(), in,
                            new LineCollector(lines)).exitStatus();
                    if (status != 0) {
                        wrong.add("status " + status + " for " + request);
                    }
                } catch (Exception e) {
                    wrong.add(e.toString());
                } finally {
                    ended.countDown();
                }
            });
        }
        boolean allEnded = ended.await(LIMIT.toSeconds(), TimeUnit.SECONDS);
        if (!allEnded) {
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
            fail("after " + LIMIT.toSeconds() + " s, " + answered.getCount() + " of " + SESSIONS
                    + " sessions were still unanswered and " + ended.getCount() + " had not ended:"
                    + " the sessions (or the JVM's virtual threads) hang");
        }
        assertEquals(List.of(), List.copyOf(wrong));
        assertEquals(0, answered.getCount(), "sessions that ended without their answer");
    }
}
