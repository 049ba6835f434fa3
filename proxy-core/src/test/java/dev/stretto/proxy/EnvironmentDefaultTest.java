package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration that gives no {@link HostEnvironment} takes the JVM's: a {@code ~} is its HOME
 * and a missing program is looked up on its PATH (and the message says which). Run in a JVM of
 * its own, whose environment the test sets.
 */
class EnvironmentDefaultTest {

    @Test
    void withoutAHostEnvironmentTheSessionTakesTheJvmsHomeAndPath(@TempDir Path home) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "-cp", ChildJvm.classPath(), EnvironmentHarness.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("PATH", "/usr/bin:/bin");
        Process harness = pb.start();
        try {
            String out = new String(harness.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(harness.waitFor(60, TimeUnit.SECONDS), "the harness did not end");
            List<String> lines = out.lines().toList();
            assertEquals(2, lines.size(), out);
            Path log = Path.of(lines.get(0).substring("log=".length()));
            assertEquals(home.resolve("logs"), log.getParent(), out);
            assertTrue(Files.readString(log).contains("\"method\":\"ping\""), out);
            assertEquals("missing=cannot start the server: command not found: stretto-no-such-server"
                    + " (searched PATH=/usr/bin:/bin)", lines.get(1));
        } finally {
            harness.destroyForcibly();
        }
    }
}
