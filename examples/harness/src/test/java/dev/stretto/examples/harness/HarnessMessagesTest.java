package dev.stretto.examples.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.Proxy;
import dev.stretto.trace.log.LogEntry;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A harness JVM that speaks MCP on its own stdio must get nothing of the proxy's there, whatever
 * logging library is on its class path, and must still see the proxy's warnings on stderr.
 */
class HarnessMessagesTest {

    /** A session whose server ignores its closed input: the proxy says where it records, then warns and sends SIGTERM. */
    private static final String HARNESS = """
            package h;
            import dev.stretto.proxy.Proxy;
            import dev.stretto.proxy.ProxyConfig;
            import dev.stretto.proxy.ShutdownTimings;
            import dev.stretto.proxy.UpstreamSpec;
            import java.io.ByteArrayInputStream;
            import java.io.OutputStream;
            import java.nio.file.Path;
            import java.time.Duration;
            public class Talk {
                public static void main(String[] args) throws Exception {
                    int status = Proxy.run(ProxyConfig.builder(UpstreamSpec.Command.of("sleep", "30"))
                            .record(Path.of(args[0]))
                            .shutdown(new ShutdownTimings(Duration.ofMillis(100), Duration.ofSeconds(5)))
                            .build(), new ByteArrayInputStream(new byte[0]), OutputStream.nullOutputStream()).exitStatus();
                    System.exit(status == 143 ? 0 : 1);
                }
            }
            """;

    private static final String WARNING = "stretto-proxy: the server did not exit within 100 ms after its input closed;"
            + " sending it SIGTERM";

    /** What the harness JVM wrote on stdout and stderr, with its exit status. */
    private record Run(int status, String stdout, String stderr) {
    }

    private static Run runHarness(Path tmp, List<Class<?>> extra) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/h"));
        Files.writeString(src.resolve("Talk.java"), HARNESS);
        List<Class<?>> onPath = new ArrayList<>(List.of(Proxy.class, LogEntry.class, ObjectMapper.class,
                JsonParser.class, JsonProperty.class));
        onPath.addAll(extra);
        String classPath = onPath.stream().map(HarnessExampleTest::location).distinct()
                .collect(Collectors.joining(File.pathSeparator));
        assertEquals("", HarnessExampleTest.compile(List.of("--class-path", classPath), tmp, src.resolve("Talk.java")));
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "--enable-preview",
                "-cp", classPath + File.pathSeparator + tmp.resolve("out"), "h.Talk", logs.toString())
                .directory(tmp.toFile())
                .start();
        try {
            p.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            String out = read(p.getInputStream());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not end");
            return new Run(p.exitValue(), out, err.get(60, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void withTinylogOnTheClassPathAndNoConfigurationNothingReachesTheHarnesssStdout(@TempDir Path tmp) throws Exception {
        Class<?> api = Class.forName("org.tinylog.Logger");
        Class<?> impl = Class.forName("org.tinylog.core.TinylogLoggingProvider");
        Run run = runHarness(tmp, List.of(api, impl));
        assertEquals(0, run.status(), run.stderr());
        assertEquals("", run.stdout(), "the harness's stdout is its protocol's");
        List<String> err = run.stderr().lines().toList();
        assertTrue(err.getFirst().startsWith("stretto-proxy: recording to " + tmp.resolve("logs") + "/"), run.stderr());
        assertTrue(err.contains(WARNING), run.stderr());
    }

    @Test
    void withTinylogsApiButNoImplementationTheWarningsStillReachStderr(@TempDir Path tmp) throws Exception {
        Run run = runHarness(tmp, List.of(Class.forName("org.tinylog.Logger")));
        assertEquals(0, run.status(), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().lines().anyMatch(WARNING::equals), run.stderr());
    }
}
