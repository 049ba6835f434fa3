package dev.stretto.trace.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.Fixtures;
import dev.stretto.trace.testing.LogBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {

    @Test
    void theFixtureManifestReadsAndWritesByteForByte(@TempDir Path dir) throws IOException {
        Path fixture = Fixtures.file("shop.manifest.json");
        Manifest m = Manifest.read(fixture);
        assertEquals("shop", m.domain());
        assertEquals(List.of("find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order"),
                List.copyOf(m.tools().keySet()));
        assertEquals(Files.readString(fixture), m.toJson());
        m.write(dir.resolve("out.json"));
        assertEquals(-1L, Files.mismatch(fixture, dir.resolve("out.json")));
    }

    @Test
    void theShopSessionsListTheToolsOfTheFixtureManifest() throws IOException {
        List<SessionLog> logs = SessionLog.readDirectory(Fixtures.root().resolve("home/logs/shop"));
        assertEquals(6, logs.size());
        assertEquals(Files.readString(Fixtures.file("shop.manifest.json")), Manifest.of(logs, "shop").toJson());
    }

    @Test
    void readOnlyHintTrueFalseAndAbsentAreReadWriteAndGeneric() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}")
                .line(1, Source.SERVER, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":["
                        + "{\"name\":\"r\",\"annotations\":{\"readOnlyHint\":true},\"description\":\"  Reads\\n\\tthings. \"},"
                        + "{\"name\":\"w\",\"annotations\":{\"readOnlyHint\":false},\"inputSchema\":{\"properties\":"
                        + "{\"a\":{\"description\":\"the  a\"},\"b\":{}}}},"
                        + "{\"name\":\"g\"},{\"name\":\"s\",\"annotations\":{\"readOnlyHint\":\"yes\"}}]}}")
                .build();
        Manifest m = Manifest.of(log, "d");
        assertEquals(Map.of("r", ToolKind.READ, "w", ToolKind.WRITE, "g", ToolKind.GENERIC, "s", ToolKind.GENERIC),
                m.tools());
        assertEquals(Map.of("r", new Manifest.ToolDoc("Reads things.", Map.of()), "w",
                new Manifest.ToolDoc("", Map.of("a", "the a"))), m.docs());
    }

    @Test
    void onlyAnswersToTheClientsToolsListRequestsCount() {
        String tools = "{\"tools\":[{\"name\":\"x\"}]}";
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"q\"}}")
                .line(1, Source.SERVER, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + tools + "}")
                .line(2, Source.SERVER, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":" + tools + "}")
                .build();
        assertEquals(Map.of(), Manifest.of(log, "d").tools());
    }

    @Test
    void anEmptyManifestIsWrittenWithAnEmptyObject() {
        assertEquals("{\n  \"domain\": \"d\",\n  \"tools\": {}\n}\n", new Manifest("d", Map.of(), Map.of()).toJson());
    }

    @Test
    void aBadKindIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Manifest.parse("{\"domain\":\"d\",\"tools\":{\"a\":\"maybe\"}}"));
        assertEquals("unknown tool kind \"maybe\" (read, write or generic)", e.getMessage());
    }
}
