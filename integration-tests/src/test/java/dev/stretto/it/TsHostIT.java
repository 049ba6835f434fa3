package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A real MCP host, the official TypeScript SDK's client (integration-tests/ts-host/host.mjs,
 * installed by bin/test into .cache/ts-host), starting stretto-proxy as its stdio server:
 * once in front of the demo over HTTP, once in front of the demo as a child.
 */
class TsHostIT {
    /** The demo's answer to lookup {"text":"hi"}, as the host prints it. */
    private static final String RESULT =
            "result: {\"content\":[{\"type\":\"text\",\"text\":\"{\\\"text\\\":\\\"hi\\\"}\"}],\"isError\":false}";

    private static String host(List<String> serverCommand) throws Exception {
        Path sdk = Repo.root().resolve(".cache/ts-host/node_modules/@modelcontextprotocol/sdk");
        assertTrue(Files.isDirectory(sdk), "the TypeScript SDK is expected in " + sdk
                + "; run bin/lib/npm-install ts-host (bin/test does so before mvn verify)");
        List<String> command = new ArrayList<>(List.of("node", Repo.root().resolve("integration-tests/ts-host/host.mjs")
                .toString(), "--call", "lookup", "--args", "{\"text\":\"hi\"}"));
        command.addAll(serverCommand);
        try (Proc p = Proc.start(command, null, Map.of())) {
            int status = p.waitFor();
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertEquals(0, status, "host exit status; stdout:\n" + out + "\nstderr:\n" + p.stderr());
            assertTrue(out.endsWith("\nhost: ok\n"), out);
            return out;
        }
    }

    @Test
    void theSdkClientWorksThroughTheProxyInFrontOfAnHttpServer() throws Exception {
        try (HttpServers.Demo demo = HttpServers.Demo.start()) {
            String out = host(List.of("--", Repo.bin("stretto-proxy"), "--upstream", demo.url()));
            assertTrue(out.lines().anyMatch(RESULT::equals), out);
            assertTrue(out.contains("log: info \"calling lookup\""), "the call's log message reached the SDK: " + out);
        }
    }

    @Test
    void theSdkClientWorksThroughTheProxyInFrontOfAStdioServer() throws Exception {
        String out = host(List.of("--", Repo.bin("stretto-proxy"), "--", Repo.bin("stretto-mcp-demo")));
        assertEquals(List.of("server: {\"name\":\"stretto-mcp-demo\",\"version\":\"0.1.0\"}", "tools: lookup update", RESULT,
                "host: ok"), out.lines().toList());
    }
}
