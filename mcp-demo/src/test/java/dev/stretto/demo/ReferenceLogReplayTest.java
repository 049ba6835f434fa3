package dev.stretto.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replays the reference demo's recorded retail sessions over stdio and compares every byte. */
class ReferenceLogReplayTest {

    static Stream<ReferenceLogs> logs() {
        return ReferenceLogs.all();
    }

    @Test
    void allRecordedSessionsAreThere() {
        List<ReferenceLogs> logs = ReferenceLogs.all().toList();
        assertEquals(8, logs.size(), "reference logs in the test resources");
        int answers = logs.stream().mapToInt(l -> l.fromServer().size()).sum();
        assertTrue(answers >= 50, "the logs hold " + answers + " server answers");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void stdioAnswersMatchTheReferenceByteForByte(ReferenceLogs log) {
        String input = String.join("\n", log.toServer()) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DemoMain.run(List.of("--world", "retail"),
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(String.join("\n", log.fromServer()) + "\n", out.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }
}
