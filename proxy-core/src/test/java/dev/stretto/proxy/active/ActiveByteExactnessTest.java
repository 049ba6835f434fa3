package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.policy.IssueExample;
import dev.stretto.proxy.policy.PolicyReader;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active mode keeps passive mode's byte-exactness for every line it does not act on: through
 * {@code cat}, every byte the host writes comes back unchanged, whatever the line is, with the
 * guards, the commit tool, a conversation file and a policy all loaded.
 */
class ActiveByteExactnessTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** 10,000 lines of every awkward kind, one 8 MB line among them, the last without its newline. */
    private static byte[] mixedLines() {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        for (int i = 0; i < 10_000; i++) {
            switch (i % 10) {
                case 0 -> in.writeBytes(bytes("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\n"));
                case 1 -> in.writeBytes(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                        + "{\"progress\":" + i + ",\"total\":1e4}}\n"));
                case 2 -> in.writeBytes(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"x-" + i + "\",\"result\":{\"text\":\"\\u00e9\\n\"}}\n"));
                case 3 -> in.writeBytes(bytes("{\"jsonrpc\": \"2.0\", \"id\": " + i + ",\n"));
                case 4 -> in.writeBytes(bytes("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},{\"jsonrpc\":\"2.0\",\"id\":"
                        + i + ",\"method\":\"ping\"}]\n"));
                case 5 -> in.writeBytes(bytes("\n"));
                case 6 -> in.writeBytes(bytes("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}\r\n"));
                case 7 -> in.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, 'x', (byte) 0xc3, '\n'});
                case 8 -> in.writeBytes(bytes("  {\"b\" : [1.0, 2E3, -0.0], \"a\":\"caf\u00e9\"}  \n"));
                default -> in.writeBytes(bytes("plain text " + i + " \t\n"));
            }
            if (i == 5_000) {
                byte[] big = new byte[8 * 1024 * 1024];
                Arrays.fill(big, (byte) 'a');
                big[0] = '"';
                big[big.length - 1] = '"';
                in.writeBytes(big);
                in.write('\n');
            }
        }
        in.writeBytes(bytes("{\"last\":true}"));
        return in.toByteArray();
    }

    @Test
    void tenThousandMixedLinesTheProxyDoesNotActOnComeBackByteForByte(@TempDir Path tmp) throws Exception {
        byte[] input = mixedLines();
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("cat")).record(tmp.resolve("logs"))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).commit(true)
                        .context(tmp.resolve("no-conversation-yet.jsonl"))
                        .toolPolicy(new ToolPolicy(PolicyReader.read(IssueExample.JSON, "example.json"), null)).build())
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> Proxy.run(config, new ByteArrayInputStream(input), out).exitStatus());
        assertEquals(0, status);
        assertArrayEquals(input, out.toByteArray());

        SessionLog log = SessionLog.read(RetailGuardsEndToEndTest.onlyLogPath(tmp.resolve("logs")));
        List<LogEntry> entries = log.entries();
        assertEquals(2 * 10_002, entries.size(), "each line logged as the host's and again as cat's");
        long clients = 0;
        long t = 0;
        for (LogEntry e : entries) {
            assertEquals(true, e.tMs() >= t, "t_ms never decreases");
            t = e.tMs();
            if (e.from() == Source.CLIENT) {
                clients++;
            } else {
                assertEquals(Source.SERVER, e.from());
            }
        }
        assertEquals(10_002, clients);
    }
}
