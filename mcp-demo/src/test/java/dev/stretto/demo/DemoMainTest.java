package dev.stretto.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line in-process: what goes to stdout and stderr, and the exit code. */
class DemoMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String stdin, String... args) {
        return DemoMain.run(List.of(args), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void versionGoesToStdout() {
        assertEquals(0, run("", "--version"));
        assertEquals("stretto-mcp-demo 0.1.0\n", stdout());
        assertEquals("", stderr());
    }

    @Test
    void helpGoesToStdoutAndNamesEveryOption() {
        assertEquals(0, run("", "--help"));
        for (String option : List.of("--world echo|retail", "--hide TOOL", "--hint TOOL=false", "--hint TOOL=none",
                "--http ADDR", "--require-auth VALUE", "serves until killed", "--version",
                "Exit status: 0 once stdin has ended", "2 for a usage error")) {
            assertTrue(stdout().contains(option), option);
        }
        assertEquals("", stderr());
    }

    @Test
    void badUsageIsOneLineOnStderrAndExitCode2() {
        assertEquals(2, run("", "--world", "mars"));
        assertEquals("", stdout());
        assertEquals("stretto-mcp-demo: --world mars: the worlds are echo, retail and tau2-retail (see --help)\n", stderr());
    }

    @Test
    void servesStdioByDefaultAndAppliesTheOptions() {
        String in = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"update\"}}\n";
        assertEquals(0, run(in, "--hide", "update", "--hint", "lookup=none"));
        List<String> lines = stdout().lines().toList();
        assertEquals(2, lines.size(), stdout());
        assertTrue(lines.get(0).startsWith("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":[{\"annotations\":{},"
                + "\"description\":\"Look something up."), lines.get(0));
        assertTrue(lines.get(0).endsWith("\"name\":\"lookup\"}]}}"), lines.get(0));
        assertEquals("{\"error\":{\"code\":-32602,\"message\":\"Unknown tool: update\"},\"id\":2,\"jsonrpc\":\"2.0\"}",
                lines.get(1));
    }
}
