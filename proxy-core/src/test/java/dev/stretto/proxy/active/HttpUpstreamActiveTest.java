package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Episode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Active mode in front of a Streamable HTTP server (the demo with --http): the same as in front of a child. */
class HttpUpstreamActiveTest {

    @Test
    void guardsCommitAndTheServersOwnStreamWorkOverHttp(@TempDir Path tmp) throws Exception {
        Process demo = new ProcessBuilder(Demo.command("--world", "retail", "--http", "127.0.0.1:0"))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String url = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8)).readLine();
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(URI.create(url))).record(tmp).domain("retail")
                    .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).commit(true).build())
                    .build();
            try (LiveHost host = LiveHost.start(config)) {
                JsonNode tools = host.handshake();
                assertEquals("stretto_commit", tools.path("result").path("tools").path(4).path("name").asText());
                host.call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}");
                host.call(4, "get_user_details", "{\"user_id\":\"user_7\"}");
                host.call(5, "get_order_details", "{\"order_id\":\"#W7a\"}");
                JsonNode refused = host.call(6, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"found it cheaper\"}");
                assertTrue(LiveHost.text(refused).startsWith("Refused by the policy check, so cancel_pending_order"));
                JsonNode done = host.call(7, "stretto_commit",
                        "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}}]}");
                assertEquals("cancel_pending_order {\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}:\n"
                        + "{\"order_id\":\"#W7a\",\"status\":\"cancelled\"}", LiveHost.text(done));
                while (host.received().stream().noneMatch(m -> m.path("params").path("data").asText()
                        .equals("hello from the server's own stream"))) {
                    host.next();
                }
                host.closeInput();
                assertEquals(0, host.exitStatus());
            }
            Episode ep = Episode.of(RetailGuardsEndToEndTest.onlyLog(tmp));
            assertEquals(6, ep.calls().size(), "five of the agent's calls and the commit's one");
        } finally {
            demo.destroyForcibly();
            demo.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
