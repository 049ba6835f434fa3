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
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        String modulePath = modulePath();
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

    /**
     * Active mode is configured through the API package ({@code ActiveSettings}), so a harness on
     * the module path can switch it on: here its guards refuse a cancellation by an agent nobody
     * authenticated, in a JVM of its own that runs the harness as a named module.
     */
    @Test
    void aHarnessOnTheModulePathSwitchesOnActiveModeAndItsGuardsRefuseACall(@TempDir Path tmp) throws Exception {
        String modulePath = modulePath();
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("h"));
        Files.writeString(src.resolve("module-info.java"), "module h { requires dev.stretto.proxy; }");
        Files.writeString(src.resolve("h/Guarded.java"), """
                package h;
                import dev.stretto.proxy.ActiveSettings;
                import dev.stretto.proxy.Proxy;
                import dev.stretto.proxy.ProxyConfig;
                import dev.stretto.proxy.SessionResult;
                import dev.stretto.proxy.UpstreamSpec;
                public class Guarded {
                    public static void main(String[] args) throws Exception {
                        // The agent's side: this JVM's stdin and stdout.
                        SessionResult result = Proxy.run(ProxyConfig.builder(UpstreamSpec.Command.of("cat"))
                                .domain("retail")
                                .active(ActiveSettings.builder().guards("retail").commit(true).build())
                                .build(), System.in, System.out);
                        System.out.println("exit " + result.exitStatus() + ", " + result.lines());
                    }
                }
                """);
        Path out = tmp.resolve("out");
        assertEquals("", compile(modulePath, tmp, src.resolve("module-info.java"), src.resolve("h/Guarded.java")));

        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "--enable-preview",
                "--module-path", modulePath + File.pathSeparator + out, "-m", "h/h.Guarded")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        try {
            try (OutputStream agent = p.getOutputStream()) {
                agent.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W1a\",\"reason\":"
                        + "\"no longer needed\"}}}\nnot json\n").getBytes(StandardCharsets.UTF_8));
            }
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not end");
            assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy"
                    + " check, so cancel_pending_order was not run and nothing changed: the user has not been authenticated"
                    + " by email or by name and zip code (policy check retail.authenticated); the order's status was not"
                    + " checked first (policy check retail.status_checked).\",\"type\":\"text\"}],\"isError\":true}}\n"
                    + "not json\n"
                    + "exit 0, LineCounts[fromClient=2, fromServer=1, fromProxy=1, fromContext=0]\n", stdout);
            assertEquals(0, p.exitValue());
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * What a harness on the module path puts there: proxy-core and trace-reader, Jackson, and the
     * YAML reader proxy-core reads policies with (its module requires it; the harness names no
     * class of it).
     */
    static String modulePath() {
        return Stream.of(Proxy.class, LogEntry.class, ObjectMapper.class, JsonParser.class, JsonProperty.class,
                        named("com.fasterxml.jackson.dataformat.yaml.YAMLFactory"), named("org.yaml.snakeyaml.LoaderOptions"))
                .map(HarnessExampleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
    }

    private static Class<?> named(String name) {
        try {
            return Class.forName(name, false, HarnessExampleTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("not on the test's path: " + name, e);
        }
    }

    static String compile(String modulePath, Path tmp, Path... sources) throws IOException {
        return compile(List.of("--module-path", modulePath), tmp, sources);
    }

    /** Compiles with {@code path} ({@code --module-path} or {@code --class-path} and its value); javac's errors. */
    static String compile(List<String> path, Path tmp, Path... sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        List<String> options = new ArrayList<>(List.of("--release", "25", "--enable-preview",
                "-d", Files.createDirectories(tmp.resolve("out")).toString(), "-Xlint:-preview"));
        options.addAll(path);
        javac.getTask(errors, null, null, options, null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(sources)).call();
        return errors.toString().replaceAll("(?m)^Note: .*\\R", "");
    }

    static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
