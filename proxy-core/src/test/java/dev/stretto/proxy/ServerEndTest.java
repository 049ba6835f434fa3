package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A result says when the proxy cut the server short or ended it ({@link SessionResult#serverEnd()}),
 * for a server in the JVM and for a child, and when the server finished by itself.
 */
class ServerEndTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final ShutdownTimings QUICK = new ShutdownTimings(Duration.ofMillis(200), Duration.ofMillis(200));
    private static final int CALLS = 2_000;

    /** {@code CALLS} pipelined calls, one a line, then the end of the host's input. */
    private static byte[] pipelinedCalls() {
        StringBuilder in = new StringBuilder();
        for (int i = 1; i <= CALLS; i++) {
            in.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"tools/call\"}\n");
        }
        return in.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** An in-process server that answers each call after {@code delayMicros}, and ends its output once done. */
    private static InProcessServer answering(long delayMicros) throws Exception {
        return InProcessServer.start((in, out) -> {
            BufferedReader calls = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String call = calls.readLine(); call != null; call = calls.readLine()) {
                java.util.concurrent.locks.LockSupport.parkNanos(delayMicros * 1000);
                out.write(call.replace("\"method\":\"tools/call\"", "\"result\":{}").getBytes(StandardCharsets.UTF_8));
                out.write('\n');
                out.flush();
            }
        });
    }

    private static SessionResult run(ProxyConfig config, InputStream in, OutputStream out) {
        return assertTimeoutPreemptively(LIMIT, () -> Proxy.run(config, in, out));
    }

    private static long lines(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8).lines().count();
    }

    /** The case: the server still writes when the grace after the host's end is over. */
    @Test
    void anInProcessServerStillAnsweringAfterTheGraceIsCutOffAndTheResultSaysSo() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // 2,000 answers, 1 ms each: two seconds of answers, ten times the grace.
        SessionResult result = run(ProxyConfig.builder(answering(1_000).spec("slow")).shutdown(QUICK).build(),
                new ByteArrayInputStream(pipelinedCalls()), out);
        assertTrue(lines(out) < CALLS, lines(out) + " answers");
        assertEquals(EndReason.HOST_CLOSED, result.endReason());
        assertEquals(ServerEnd.CUT_OFF, result.serverEnd());
        assertEquals(lines(out), result.lines().fromServer());
    }

    @Test
    void anInProcessServerThatAnswersEverythingWithinTheGraceFinished() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(answering(0).spec("quick"))
                        .shutdown(new ShutdownTimings(Duration.ofSeconds(20), Duration.ofMillis(200))).build(),
                new ByteArrayInputStream(pipelinedCalls()), out);
        assertEquals(CALLS, lines(out));
        assertEquals(ServerEnd.FINISHED, result.serverEnd());
        assertEquals(0, result.exitStatus());
    }

    @Test
    void aChildThatExitsByItselfFinishedWithItsOwnStatus() {
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", "cat; exit 3"))
                .shutdown(QUICK).build(), new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
        assertEquals(3, result.exitStatus());
        assertEquals(ServerEnd.FINISHED, result.serverEnd());
    }

    @Test
    void aChildThatIgnoresItsClosedInputIsTerminatedAndOneThatIgnoresSigtermIsKilled() {
        SessionResult terminated = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", "exec sleep 30"))
                .shutdown(QUICK).build(), new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
        assertEquals(143, terminated.exitStatus());
        assertEquals(EndReason.HOST_CLOSED, terminated.endReason());
        assertEquals(ServerEnd.TERMINATED, terminated.serverEnd());

        SessionResult killed = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c",
                        "trap '' TERM; while :; do sleep 1; done")).shutdown(QUICK).build(),
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
        assertEquals(137, killed.exitStatus());
        assertEquals(ServerEnd.KILLED, killed.serverEnd());
    }

    @Test
    void aChildThatHandlesSigtermAndExitsZeroWasStillEndedByTheProxy() {
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c",
                        "trap 'exit 0' TERM; while :; do sleep 0.05; done")).shutdown(QUICK).build(),
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
        assertEquals(0, result.exitStatus(), "its own status after the signal");
        assertEquals(ServerEnd.TERMINATED, result.serverEnd());
    }

    @Test
    void aChildThatClosesItsOutputButKeepsRunningIsEndedWhileTheHostIsStillThere() throws Exception {
        OpenInput in = new OpenInput(new byte[0]);
        try {
            SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c",
                    "exec 1>&-; exec sleep 30")).shutdown(QUICK).build(), in, new ByteArrayOutputStream());
            assertEquals(EndReason.SERVER_EXITED, result.endReason());
            assertEquals(ServerEnd.TERMINATED, result.serverEnd());
            assertEquals(143, result.exitStatus());
        } finally {
            in.close();
        }
    }
}
