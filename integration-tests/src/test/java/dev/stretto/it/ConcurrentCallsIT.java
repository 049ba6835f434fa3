package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Thousands of parallel tools/call through the proxy: nothing lost, every line logged. */
class ConcurrentCallsIT {
    static final int CALLS = 2000;

    @TempDir
    Path logs;

    @Test
    void twoThousandDelayedLookupsAreAllAnsweredAndLogged() throws Exception {
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        burst.writeBytes(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"load\",\"version\":\"0\"}}}\n").getBytes(StandardCharsets.UTF_8));
        for (int i = 1; i <= CALLS; i++) {
            burst.writeBytes(("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                    + "\"arguments\":{\"text\":\"call " + i + "\",\"delay_ms\":200}}}\n").getBytes(StandardCharsets.UTF_8));
        }
        try (Proc p = Proc.start(java.util.List.of(Repo.bin("stretto-proxy"), "--record", logs.toString(), "--",
                Repo.bin("stretto-mcp-demo")))) {
            OutputStream in = p.stdin();
            in.write(burst.toByteArray());
            in.flush();
            Set<Integer> answered = new HashSet<>();
            for (int i = 0; i <= CALLS; i++) {
                JsonNode m = SessionLogFile.JSON.readTree(p.nextLine());
                int id = m.get("id").asInt();
                if (id > 0) {
                    assertEquals("{\"delay_ms\":200,\"text\":\"call " + id + "\"}", m.at("/result/content/0/text").asText());
                }
                answered.add(id);
            }
            assertEquals(CALLS + 1, answered.size(), "every request answered once");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals(2 * (CALLS + 1), log.entries().size(), "every line logged");
        assertEquals(CALLS + 1, log.indexesFrom("client").size());
        log.assertTimesNeverDecrease();
    }
}
