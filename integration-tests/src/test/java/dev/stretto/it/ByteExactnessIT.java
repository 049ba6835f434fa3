package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With `cat` as the server, whatever the host writes comes back byte for byte, and is logged right. */
class ByteExactnessIT {

    @TempDir
    Path logs;

    @Test
    void everyKindOfLineComesBackByteForByteAndIsLoggedAsMessageOrRaw() throws Exception {
        everyLineComesBack();
    }

    /** The same lines with a policy loaded (the example that hides tools and denies sampling): it acts on none. */
    @Test
    void everyKindOfLineComesBackByteForByteWithAPolicyLoaded() throws Exception {
        everyLineComesBack("--policy", Repo.root().resolve("examples/policies/no-network.yaml").toString());
    }

    private void everyLineComesBack(String... options) throws Exception {
        char[] big = new char[8 * 1024 * 1024];
        Arrays.fill(big, 'x');
        String bigLine = "{\"big\":\"" + new String(big) + "\"}";

        ByteArrayOutputStream input = new ByteArrayOutputStream();
        write(input, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n");
        write(input, "\n");
        input.write(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}', '\n'});
        write(input, "hello, not json\n");
        write(input, "[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]\n");
        write(input, bigLine + "\n");
        write(input, "  {\"spaced\" : 1 }  \n");
        write(input, "{\"last\":true}");
        byte[] sent = input.toByteArray();

        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto-proxy"), "--record", logs.toString()));
        command.addAll(List.of(options));
        command.addAll(List.of("--", "cat"));
        try (Proc p = Proc.start(command)) {
            // Written from another thread: the proxy's stdout must be drained while we write.
            Thread writer = Thread.ofVirtual().start(() -> {
                try (OutputStream in = p.stdin()) {
                    in.write(sent);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(0, p.waitFor(), p.stderr());
            writer.join();
            assertArrayEquals(sent, p.stdoutBytes(), "the host gets back exactly the bytes it sent");
        }

        SessionLogFile log = SessionLogFile.onlyIn(logs);
        log.assertTimesNeverDecrease();
        List<String> expected = List.of(
                "message:{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "raw:",
                "raw:{\"a\":\"\uFFFD\uFFFD\"}",
                "raw:hello, not json",
                "message:[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]",
                "message:" + bigLine,
                "message:{\"spaced\" : 1 }",
                "message:{\"last\":true}");
        assertEquals(expected, describe(log, "client"));
        assertEquals(expected, describe(log, "server"), "cat's echo is logged the same way");
    }

    private static List<String> describe(SessionLogFile log, String from) {
        List<String> out = new ArrayList<>();
        for (int i : log.indexesFrom(from)) {
            JsonNode e = log.entries().get(i);
            out.add(e.has("message") ? "message:" + log.messageText(i) : "raw:" + e.get("raw").asText());
        }
        return out;
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
}
