package dev.stretto.examples.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.EndReason;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.SessionResult;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.LogEntry;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinylog.Logger;

/** The example harness runs, and says what the README says it does. */
class HarnessExampleTest {

    @Test
    void eightSessionsAtOnceEachGetTheirAnswerWithEveryLineWatchedAndAnEpisodeInMemory() {
        List<HarnessExample.SessionReport> reports = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> HarnessExample.runSessions(8));
        assertEquals(8, reports.size());
        for (int n = 0; n < reports.size(); n++) {
            HarnessExample.SessionReport r = reports.get(n);
            SessionResult result = r.result();
            assertEquals(0, result.exitStatus());
            assertEquals(EndReason.HOST_CLOSED, result.endReason());
            assertEquals(new SessionResult.LineCounts(3, 2, 0, 0), result.lines());
            assertEquals(null, result.logPath(), "recorded in memory only");
            assertEquals(5, r.watched().size(), r.watched().toString());
            assertTrue(r.watched().get(0).matches("\\d+ client \\{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\".*"),
                    r.watched().get(0));
            List<Event.ToolResult> results = r.episode().events().stream()
                    .filter(e -> e instanceof Event.ToolResult).map(e -> (Event.ToolResult) e).toList();
            assertEquals(1, results.size());
            assertEquals("lookup", results.getFirst().name());
            assertFalse(results.getFirst().error());
            assertTrue(results.getFirst().content().contains("order " + n), results.getFirst().content());
            assertEquals(result.sessionId() + ": exit 0 (HOST_CLOSED), 3 lines from the agent, 2 from the server,"
                    + " 1 tool result(s), 5 lines watched", HarnessExample.describe(r));
        }
        assertEquals(8, reports.stream().map(r -> r.result().sessionId()).distinct().count(), "one id per session");
    }

    /**
     * proxy-core is a named module that exports its API package only: a harness on the module
     * path compiles against the API, and a use of an internal package is refused.
     */
    @Test
    void aHarnessOnTheModulePathGetsTheApiButNotTheInternals(@TempDir Path tmp) throws Exception {
        String modulePath = Stream.of(Proxy.class, LogEntry.class, ObjectMapper.class, JsonParser.class,
                        JsonProperty.class, Logger.class)
                .map(HarnessExampleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("h"));
        Files.writeString(src.resolve("module-info.java"), "module h { requires dev.stretto.proxy; }");
        Files.writeString(src.resolve("h/Api.java"), """
                package h;
                public class Api {
                    static dev.stretto.proxy.SessionResult run(java.io.InputStream in, java.io.OutputStream out)
                            throws Exception {
                        var recording = new dev.stretto.proxy.MemoryRecording();
                        var result = dev.stretto.proxy.Proxy.run(dev.stretto.proxy.ProxyConfig.builder(
                                dev.stretto.proxy.UpstreamSpec.Command.of("cat")).recordTo(recording).build(), in, out);
                        dev.stretto.trace.log.SessionLog log = recording.sessionLog();
                        return result;
                    }
                }
                """);
        assertEquals("", compile(modulePath, tmp, src.resolve("module-info.java"), src.resolve("h/Api.java")));

        Files.writeString(src.resolve("h/Internal.java"), """
                package h;
                public class Internal {
                    dev.stretto.proxy.session.Session session;
                }
                """);
        String errors = compile(modulePath, tmp, src.resolve("module-info.java"), src.resolve("h/Internal.java"));
        assertTrue(errors.contains("package dev.stretto.proxy.session is not visible"), errors);
    }

    private static String compile(String modulePath, Path tmp, Path... sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        List<String> options = List.of("--release", "25", "--enable-preview", "--module-path", modulePath,
                "-d", Files.createDirectories(tmp.resolve("out")).toString(), "-Xlint:-preview");
        javac.getTask(errors, null, null, options, null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(sources)).call();
        return errors.toString().replaceAll("(?m)^Note: .*\\R", "");
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
