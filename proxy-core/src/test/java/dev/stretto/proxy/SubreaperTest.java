package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stretto.proxy.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A harness that makes its JVM a child subreaper keeps its own child processes: a session ends
 * only what descends from its own server, and the JDK still collects the exit status of the
 * processes the harness started; when an interrupted session throws, its server and what the
 * server left behind are reaped already. Run in a JVM of its own ({@link SubreaperHarness}), as the
 * setting is the whole process's.
 */
class SubreaperTest {

    @Test
    void aSessionEndsOnlyWhatItsOwnServerLeftBehindNeverTheHarnessesOwnProcess() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "child subreapers are Linux's");
        Process harness = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-cp", ChildJvm.classPath(),
                SubreaperHarness.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String out = new String(harness.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(true, harness.waitFor(60, TimeUnit.SECONDS), "the harness did not end");
            assertEquals(List.of(
                    "subreaper=true",
                    "first.status=0",
                    "first.orphan.running=false",
                    "second.orphan.running=true",
                    "own.alive=true",
                    "own.orphan.running=true",
                    "second.status=0",
                    "second.orphan.running=false",
                    "third.interrupted.server.alive,orphan.alive=false,false",
                    "own.alive=true",
                    "own.orphan.collected=true",
                    "own.status=143"), out.lines().toList(), out);
        } finally {
            harness.destroyForcibly();
        }
    }
}
