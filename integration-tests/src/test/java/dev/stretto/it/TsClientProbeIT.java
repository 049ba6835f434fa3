package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A real MCP host, the official TypeScript SDK's client (shared/tools/ts-client-probe.mjs),
 * starting stretto-proxy as its stdio server: once in front of the demo over HTTP, once in
 * front of the demo as a child. The SDK comes with the reference server's install.
 */
class TsClientProbeIT {
    /** The demo's answer to lookup {"text":"hi"}, as the probe prints it. */
    private static final String RESULT =
            "result: {\"content\":[{\"type\":\"text\",\"text\":\"{\\\"text\\\":\\\"hi\\\"}\"}],\"isError\":false}";

    private static String probe(List<String> serverCommand) throws Exception {
        Path script = Repo.shared().resolve("tools/ts-client-probe.mjs");
        Path sdk = HttpServers.referenceServer().getParent().getParent().getParent();
        assertTrue(Files.isDirectory(sdk.resolve("node_modules/@modelcontextprotocol/sdk")),
                "the TypeScript SDK is expected in " + sdk + "; run bin/lib/reference-server");
        List<String> command = new ArrayList<>(List.of("node", script.toString()));
        command.addAll(serverCommand);
        try (Proc p = Proc.start(command, null, Map.of("MCP_SDK_DIR", sdk.toString(), "PROBE_TOOL", "lookup",
                "PROBE_ARGS", "{\"text\":\"hi\"}"))) {
            int status = p.waitFor();
            String out = new String(p.stdoutBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, status, "probe exit status; stdout:\n" + out + "\nstderr:\n" + p.stderr());
            assertTrue(out.lines().anyMatch("PROBE OK"::equals), out);
            return out;
        }
    }

    @Test
    void theSdkClientWorksThroughTheProxyInFrontOfAnHttpServer() throws Exception {
        try (HttpServers.Demo demo = HttpServers.Demo.start()) {
            String out = probe(List.of(Repo.bin("stretto-proxy"), "--upstream", demo.url()));
            assertTrue(out.lines().anyMatch(RESULT::equals), out);
            assertTrue(out.contains("log: info \"calling lookup\""), "the call's log message reached the SDK: " + out);
        }
    }

    @Test
    void theSdkClientWorksThroughTheProxyInFrontOfAStdioServer() throws Exception {
        String out = probe(List.of(Repo.bin("stretto-proxy"), "--", Repo.bin("stretto-mcp-demo")));
        assertTrue(out.lines().anyMatch(RESULT::equals), out);
    }
}
