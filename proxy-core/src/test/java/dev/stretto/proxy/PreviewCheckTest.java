package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.nopreview.EmbeddingMain;
import dev.stretto.proxy.testing.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: without {@code --enable-preview} the first {@code Proxy.run} threw
 * UnsupportedClassVersionError (an Error, not a ProxyStartException) and left an empty session
 * log behind. A program that embeds the proxy runs in a JVM of its own, with and without the flag.
 */
class PreviewCheckTest {

    private static String runEmbedding(Path logs, boolean preview) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        if (preview) {
            command.add("--enable-preview");
        }
        command.addAll(List.of("-cp", ChildJvm.classPath(), EmbeddingMain.class.getName(), logs.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        // The flag may come from the environment too: not here.
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the embedding program did not end");
            return out;
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aJvmWithoutEnablePreviewGetsAProxyStartExceptionThatSaysWhatToAddAndNoLog(@TempDir Path tmp)
            throws Exception {
        Path logs = tmp.resolve("logs");
        String out = runEmbedding(logs, false);
        assertEquals("ProxyStartException: proxy-core needs the JVM option --enable-preview: each session is a"
                + " StructuredTaskScope, a preview API in Java 25. Add --enable-preview to the java command that runs"
                + " this program (for tests, to the Surefire argLine). A JDK after 25 changes that API: this build of"
                + " proxy-core runs on Java 25 only.\n", out);
        assertFalse(Files.exists(logs), "the record directory was created");
    }

    @Test
    void aLaterJdkIsToldThatThisBuildRunsOnJava25Only() {
        assertEquals("this build of proxy-core is for Java 25 and this JVM is Java 26: each session is a"
                + " StructuredTaskScope, a preview API in Java 25 that later JDKs change, and classes built with one"
                + " release's preview features run on that release only. Run it on a JDK 25 with --enable-preview.",
                PreviewCheck.message(26));
    }

    @Test
    void theSameProgramWithTheFlagRunsItsSession(@TempDir Path tmp) throws Exception {
        Path logs = tmp.resolve("logs");
        String out = runEmbedding(logs, true);
        assertTrue(out.endsWith("ran: 0\n"), out);
        try (var files = Files.list(logs)) {
            assertEquals(1, files.count());
        }
    }
}
