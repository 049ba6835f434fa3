package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGTERM (what MCP hosts send a moment after closing stdin), SIGINT and SIGHUP end a session
 * normally: with big lines flowing through {@code cat}, every line the host received is in the
 * log, in order, the log is whole to its last line, and the proxy exits with 128 + the signal;
 * in active mode (the actor records and forwards every line) as in passive mode.
 */
class SignalShutdownIT {
    private static final int LINE_BYTES = 256 * 1024;

    @TempDir
    Path logs;

    @ParameterizedTest(name = "SIG{0} {2}")
    @CsvSource({"TERM, 15, passive", "INT, 2, passive", "HUP, 1, passive", "TERM, 15, active", "INT, 2, active"})
    void aSignalMidStreamEndsTheSessionWithEveryForwardedLineLoggedWhole(String signal, int number, String mode)
            throws Exception {
        // A test run in the background (a shell's `&`) ignores SIGINT, and the proxy would
        // inherit that; hosts start servers with the default dispositions.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,HUP,TERM", Repo.bin("stretto-proxy"),
                "--record", logs.toString()));
        if (mode.equals("active")) {
            command.add("--commit");
        }
        command.addAll(List.of("--", "cat"));
        try (Proc p = Proc.start(command)) {
            Thread feeder = Thread.ofVirtual().start(() -> feed(p));
            // Lines flow both ways, and the log has work queued, when the signal comes.
            p.nextLines(20);
            p.signal(signal);
            assertEquals(128 + number, p.waitFor(), "the proxy exits with 128 + SIG" + signal + "; stderr:\n" + p.stderr());
            feeder.join();

            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.endsWith("\n"), "the host got no torn last line");
            List<String> received = List.of(out.substring(0, out.length() - 1).split("\n"));

            SessionLogFile log = SessionLogFile.onlyIn(logs);
            List<String> logged = new ArrayList<>();
            for (int i : log.indexesFrom("server")) {
                logged.add(log.messageText(i));
            }
            assertTrue(received.size() >= 20 && received.size() <= logged.size(), "received " + received.size()
                    + " lines, logged " + logged.size());
            assertEquals(received, logged.subList(0, received.size()),
                    "every line the host received is in the log, in order");
            log.assertTimesNeverDecrease();
        }
    }

    /** Writes numbered lines of {@value #LINE_BYTES} bytes until the proxy stops reading. */
    private static void feed(Proc p) {
        char[] filler = new char[LINE_BYTES];
        Arrays.fill(filler, 'a');
        String data = new String(filler);
        try (OutputStream in = p.stdin()) {
            for (int seq = 0; ; seq++) {
                in.write(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"seq\":" + seq
                        + ",\"data\":\"" + data + "\"}}\n").getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException stopped) {
            // The proxy is gone: the host stops writing.
        }
    }
}
