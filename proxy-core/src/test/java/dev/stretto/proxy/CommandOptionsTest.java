package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.SessionLog;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child server's environment, working directory and stderr, as a harness running many sessions sets them. */
class CommandOptionsTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);

    private static String run(UpstreamSpec.Command server, String input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = assertTimeoutPreemptively(LIMIT, () -> Proxy.run(ProxyConfig.builder(server).build(),
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out));
        assertEquals(0, result.exitStatus(), out.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static UpstreamSpec.Command sh(String script) {
        return UpstreamSpec.Command.of("sh", "-c", script);
    }

    @Test
    void theEnvironmentGivenIsAddedToWhatTheServerInheritsAndReplacesTheSameName() {
        String out = run(sh("echo \"$STRETTO_TEST_KEY|$HOME_OF_TEST\"; [ -n \"$PATH\" ] && echo inherited")
                .withEnvironment(Map.of("STRETTO_TEST_KEY", "k-1", "HOME_OF_TEST", "/x")), "");
        assertEquals("k-1|/x\ninherited\n", out);
        assertEquals("replaced\n", run(sh("echo \"$PATH\"").withEnvironment(Map.of("PATH", "replaced")), ""),
                "the program itself was found on the proxy's PATH");
    }

    @Test
    void aCredentialInTheEnvironmentReachesTheHostButNeitherTheLogNorToString(@TempDir Path tmp) throws Exception {
        UpstreamSpec.Command server = sh("echo \"{\\\"key\\\":\\\"$ORDERS_API_KEY\\\",\\\"region\\\":\\\"$REGION\\\"}\"")
                .withEnvironment(Map.of("ORDERS_API_KEY", "ok-4f9a8b7c6d5e", "REGION", "eu-west"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTimeoutPreemptively(LIMIT, () -> Proxy.run(ProxyConfig.builder(server).record(tmp).build(),
                new ByteArrayInputStream(new byte[0]), out));
        assertEquals("{\"key\":\"ok-4f9a8b7c6d5e\",\"region\":\"eu-west\"}\n", out.toString(StandardCharsets.UTF_8));
        Path log;
        try (Stream<Path> s = Files.list(tmp)) {
            log = s.findFirst().orElseThrow();
        }
        assertTrue(SessionLog.read(log).entries().getFirst().toJson()
                .endsWith(",\"from\":\"server\",\"message\":{\"key\":\"<redacted>\",\"region\":\"eu-west\"}}"));
        assertFalse(Files.readString(log).contains("ok-4f9a8b7c6d5e"));
        assertEquals("Command[argv=[sh, -c, echo \"{\\\"key\\\":\\\"$ORDERS_API_KEY\\\",\\\"region\\\":\\\"$REGION\\\"}\"],"
                + " environment=[ORDERS_API_KEY, REGION], directory=null, stderr=Inherit[]]", server.toString());
    }

    @Test
    void theServerRunsInTheDirectoryGivenWhichMustExist(@TempDir Path tmp) throws Exception {
        assertEquals(tmp.toRealPath() + "\n", run(UpstreamSpec.Command.of("pwd").withDirectory(tmp), ""));

        Path missing = tmp.resolve("missing");
        Path logs = tmp.resolve("logs");
        ProxyStartException e = assertThrows(ProxyStartException.class, () -> Proxy.run(
                ProxyConfig.builder(UpstreamSpec.Command.of("pwd").withDirectory(missing)).record(logs).build(),
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()));
        assertEquals("cannot start the server: its working directory " + missing + " does not exist", e.getMessage());
        try (Stream<Path> s = Files.list(logs)) {
            assertEquals(List.of(), s.toList(), "a log was left behind");
        }
    }

    @Test
    void stderrGoesToTheCallersStreamAllOfItByTheEndOfTheSession() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // More than a pipe holds, so an undrained stderr would stop the server.
        String out = run(sh("i=0; while [ $i -lt 3000 ]; do echo \"warning $i: a long line of diagnostics\" >&2;"
                + " i=$((i+1)); done; echo done").withStderr(ServerStderr.to(err)), "");
        assertEquals("done\n", out);
        String[] lines = err.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(3000, lines.length);
        assertEquals("warning 2999: a long line of diagnostics", lines[2999]);
    }

    @Test
    void aStderrStreamThatFailsNeverStopsTheServer() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("gone");
            }
        };
        assertEquals("done\n", run(sh("i=0; while [ $i -lt 3000 ]; do echo \"warning $i: diagnostics\" >&2; i=$((i+1));"
                + " done; echo done").withStderr(ServerStderr.to(broken)), ""));
    }

    @Test
    void stderrIsAppendedToAFileSessionsMayShareOrThrownAway(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("servers.err");
        run(sh("echo first >&2").withStderr(ServerStderr.appendTo(file)), "");
        run(sh("echo second >&2").withStderr(ServerStderr.appendTo(file)), "");
        assertEquals("first\nsecond\n", Files.readString(file));
        assertEquals("out\n", run(sh("echo err >&2; echo out").withStderr(ServerStderr.discard()), ""));

        Path nowhere = tmp.resolve("no/such/dir/err");
        ProxyStartException e = assertThrows(ProxyStartException.class, () -> Proxy.run(
                ProxyConfig.builder(sh("true").withStderr(ServerStderr.appendTo(nowhere))).build(),
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()));
        assertTrue(e.getMessage().startsWith("cannot start the server: its stderr file " + nowhere + " cannot be opened: "),
                e.getMessage());
    }

    @Test
    void anEnvironmentVariableThatCannotBeIsRefusedWhenTheSpecIsMade() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UpstreamSpec.Command.of("x").withEnvironment(Map.of("A=B", "secret-value")));
        assertEquals("'A=B' cannot be the name of an environment variable", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> UpstreamSpec.Command.of("x").withEnvironment(Map.of("TOKEN", "a\0b")));
        assertEquals("the value of environment variable TOKEN contains NUL", e.getMessage());
    }
}
