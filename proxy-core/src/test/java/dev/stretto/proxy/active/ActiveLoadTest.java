package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A load test's burst through active mode: 10,000 parallel calls, every answer once, nothing lost. */
class ActiveLoadTest {

    @Test
    void tenThousandPipelinedCallsAndRefusedWritesAreEachAnsweredOnceAndLogged(@TempDir Path tmp) throws Exception {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            if (i % 100 == 99) {
                in.append(LiveHost.callLine(i, "cancel_pending_order", "{\"order_id\":\"#W" + i + "a\",\"reason\":\"no longer needed\"}"));
            } else {
                in.append(LiveHost.callLine(i, "get_order_details", "{\"order_id\":\"#W" + i + "a\"}"));
            }
            in.append('\n');
        }
        ProxyConfig config = ProxyConfig.builder(Demo.retail()).record(tmp).domain("retail")
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).commit(true).build()).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> Proxy.run(config,
                new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)), out).exitStatus());
        assertEquals(0, status);

        Set<Integer> answered = new HashSet<>();
        int refused = 0;
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            var m = LiveHost.JSON.readTree(line);
            assertEquals(true, answered.add(m.get("id").asInt()), "answered once: " + m.get("id"));
            if (LiveHost.text(m).startsWith("Refused by the policy check")) {
                refused++;
            }
        }
        assertEquals(10_000, answered.size());
        assertEquals(100, refused, "every cancellation was refused: nobody was authenticated");

        SessionLog log = RetailGuardsEndToEndTest.onlyLog(tmp);
        assertEquals(10_000, log.entries().stream().filter(e -> e.from() == Source.CLIENT).count());
        assertEquals(9_900, log.entries().stream().filter(e -> e.from() == Source.SERVER).count());
        assertEquals(100, log.entries().stream().filter(e -> e.from() == Source.PROXY).count());
        Episode ep = Episode.of(log);
        assertEquals(10_000, ep.calls().size());
        assertEquals(10_000, ep.events().stream().filter(e -> e instanceof Event.ToolResult).count());
    }
}
