package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files and entries of every shape a host's file may be found in, generated: {@code stretto
 * init} either does what it is asked and the file reads back with everything else in it, or it
 * says why not in one line, exit status 1, and the file is left exactly as it was, with no
 * backup or temporary file beside it. It never fails with an exception.
 */
class HostileConfigTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<Arguments> hostileJsonFiles() {
        List<byte[]> files = new ArrayList<>();
        for (String s : List.of("not json", "{", "}", "[]", "null", "42", "\"text\"", "{\"mcpServers\": []}",
                "{\"mcpServers\": 1}", "{\"mcpServers\": null}", "{\"mcpServers\": {}, \"mcpServers\": {}}",
                "{\"mcpServers\": {\"a\": {}, \"a\": {}}}", "{\"a\": 1} {\"b\": 2}", "{\"a\": 1,}", "{'a': 1}",
                "{\"a\": NaN}", "{\"a\": \"\u0001\"}", "{\"servers\": \"x\"}", "{\"mcp\": 5}",
                "[".repeat(5000) + "]".repeat(5000), "{\"a\":" + "{\"b\":".repeat(3000) + "1" + "}".repeat(3001),
                "{\"mcpServers\": {\"a\": 1, \"b\": [], \"c\": \"x\"}}", "\uFEFF{\"mcpServers\": {}}",
                "{\"mcpServers\": {\"big\": {\"command\": \"" + "x".repeat(200_000) + "\"}}}",
                "/* c */ {\"servers\": {}}", "{\"mcpServers\": {\"o\\u0072ders\": {\"command\": \"a\"}}}")) {
            files.add(s.getBytes(StandardCharsets.UTF_8));
        }
        files.add(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
        files.add(new byte[] {'{', 0, '}'});
        List<Arguments> out = new ArrayList<>();
        // Each file for VS Code (JSONC) and for one of the hosts that read plain JSON, in turns.
        for (int i = 0; i < files.size(); i++) {
            out.add(Arguments.of(Host.VSCODE, files.get(i)));
            out.add(Arguments.of(JSON_HOSTS.stream().filter(h -> h != Host.VSCODE).toList().get(i % 5), files.get(i)));
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("hostileJsonFiles")
    void writeIntoAHostileJsonFileEitherWorksOrLeavesItAsItWas(Host host, byte[] before) throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = Files.write(tmp.resolve("mcp.json"), before);
        InitRunner.Run run = init.run(host.id(), "orders", "--write", "--config", file.toString(), "--", "srv");
        assertLeftAsItWasOrDone(run, file, before);
        if (run.status() == 0) {
            String text = Files.readString(file);
            JsonNode doc = lenient().readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
            JsonNode servers = host == Host.VSCODE ? doc.get("servers") : doc.get("mcpServers");
            assertEquals(InitRunner.PROXY, servers.path("orders").path("command").asText(), text);
        }
    }

    static Stream<Arguments> hostileTomlFiles() {
        return Stream.of("= 1", "[a]\n[a]\n", "a = 1\na = 2\n", "mcp_servers = 1\n", "[[mcp_servers]]\nx = 1\n",
                "mcp_servers.orders.command = \"a\"\n", "[mcp_servers]\norders = { command = \"a\" }\n",
                "mcp_servers = { other = { command = \"a\" } }\n",
                "[mcp_servers.orders]\ncommand = \"a\"\nwhen = 1979-05-27T07:32:00Z\n",
                "[mcp_servers.orders]\ncommand = \"a\"\n[mcp_servers.orders.env]\nK = \"v\"\n# trailing\n",
                "s = \"\"\"\n[mcp_servers.orders]\n\"\"\"\n", "[mcp_servers.'orders']\ncommand = 'a'\n",
                "\"mcp_servers\" = {}\n", "[mcp_servers]\n", "x = [\n  1,\n  2,\n]\n[mcp_servers.other]\ncommand = \"b\"")
                .map(s -> Arguments.of(s.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @MethodSource("hostileTomlFiles")
    void writeIntoAHostileTomlFileEitherWorksOrLeavesItAsItWas(byte[] before) throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = Files.write(tmp.resolve("config.toml"), before);
        InitRunner.Run run = init.run("codex", "orders", "--write", "--config", file.toString(), "--", "srv");
        assertLeftAsItWasOrDone(run, file, before);
        if (run.status() == 0) {
            JsonNode doc = new com.fasterxml.jackson.dataformat.toml.TomlMapper().readTree(Files.readString(file));
            assertEquals(InitRunner.PROXY, doc.at("/mcp_servers/orders/command").asText(), Files.readString(file));
        }
    }

    private static final List<Host> JSON_HOSTS = List.of(Host.CLAUDE_DESKTOP, Host.CLAUDE_CODE, Host.CURSOR,
            Host.VSCODE, Host.WINDSURF, Host.JSON);

    /** Entries of every combination of odd and usual parts, one at a time in a host's file. */
    static Stream<Arguments> entryShapes() {
        List<String> commands = List.of("", "\"command\": \"srv\",", "\"command\": 5,", "\"command\": \"\",",
                "\"command\": [\"srv\"],", "\"command\": \"/x/stretto-proxy\",");
        List<String> args = List.of("", "\"args\": [\"-y\", \"a b\"],", "\"args\": \"-y\",", "\"args\": [1],",
                "\"args\": [],", "\"args\": {\"a\": 1},");
        List<String> urls = List.of("", "\"url\": \"https://example.com/mcp\",", "\"url\": 7,",
                "\"serverUrl\": \"https://example.com/mcp\",", "\"headers\": {\"Authorization\": \"Bearer t\"},",
                "\"headers\": [1],", "\"type\": \"sse\",", "\"type\": \"http\",", "\"type\": \"stdio\",", "\"type\": 3,",
                "\"oauth\": {},", "\"oauth\": 3,", "\"auth\": {\"CLIENT_ID\": 5},",
                "\"oauth\": {\"callbackPort\": 99999},", "\"auth\": {\"scopes\": [1]},");
        List<String> rest = List.of("", "\"env\": {\"K\": \"v\"},", "\"env\": [],", "\"disabled\": true,",
                "\"cwd\": \"/tmp\",");
        List<Arguments> out = new ArrayList<>();
        int k = 0;
        for (String c : commands) {
            for (String a : args) {
                for (String u : urls) {
                    String r = rest.get(k++ % rest.size());
                    String body = (c + a + u + r).replaceAll(",$", "");
                    // Each shape in the file of one host, the hosts taking turns.
                    out.add(Arguments.of(JSON_HOSTS.get(k % JSON_HOSTS.size()), "{" + body + "}"));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("entryShapes")
    void wrappingAnEntryOfAnyShapeRefusesItWithTheFileAsItWasOrRoundTripsByteForByte(Host host, String entry)
            throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String key = host == Host.VSCODE ? "servers" : "mcpServers";
        String text = "{\n  \"" + key + "\": {\n    \"keep\": {\"command\": \"k\"},\n    \"x\": " + entry + "\n  }\n}\n";
        byte[] before = text.getBytes(StandardCharsets.UTF_8);
        Path file = Files.write(tmp.resolve("mcp.json"), before);
        InitRunner.Run wrap = init.run(host.id(), "--wrap", "x", "--config", file.toString());
        assertLeftAsItWasOrDone(wrap, file, before);
        if (wrap.status() == 0 && !wrap.out().contains("nothing changed")) {
            ObjectNode wrapped = (ObjectNode) JSON.readTree(Files.readString(file)).get(key).get("x");
            assertTrue(wrapped.get("command").asText().endsWith("stretto-proxy"), wrapped.toString());
            assertEquals(JSON.readTree(text).get(key).get("keep"), JSON.readTree(Files.readString(file)).get(key).get("keep"));
            InitRunner.Run unwrap = init.run(host.id(), "--unwrap", "x", "--config", file.toString());
            assertEquals(0, unwrap.status(), unwrap.err());
            assertArrayEquals(before, Files.readAllBytes(file), "wrap then unwrap of " + entry);
        }
    }

    @Test
    void aDirectoryADanglingLinkAndAFileThatIsNotUtf8AreRefused() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path dir = Files.createDirectories(tmp.resolve("dir.json"));
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + dir + " is not a file; nothing changed\n"),
                init.run("cursor", "orders", "--write", "--config", dir.toString(), "--", "x"));
        Path dangling = Files.createSymbolicLink(tmp.resolve("gone.json"), tmp.resolve("nowhere.json"));
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + dangling + " is a link to a file that does not exist;"
                + " nothing changed\n"), init.run("cursor", "orders", "--write", "--config", dangling.toString(), "--", "x"));
        assertFalse(Files.exists(tmp.resolve("nowhere.json")));
        Path latin = Files.write(tmp.resolve("latin.json"), new byte[] {'{', '"', (byte) 0xE9, '"', ':', '1', '}'});
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + latin + " is not UTF-8 text; nothing changed\n"),
                init.run("cursor", "orders", "--write", "--config", latin.toString(), "--", "x"));
    }

    @Test
    void aReadOnlyFileIsNotWrappedAndItsRecordsAreNotKept() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String text = "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}\n";
        Path file = Files.writeString(tmp.resolve("mcp.json"), text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        InitRunner.Run run = init.run("cursor", "--wrap", "--all", "--config", file.toString());
        assertEquals(1, run.status(), run.out());
        assertTrue(run.err().contains("is read-only; nothing changed"), run.err());
        assertEquals(text, Files.readString(file));
        assertTrue(init.run("cursor", "--unwrap", "--all", "--config", file.toString()).out().contains("nothing changed"));
        JsonNode records = JSON.readTree(Files.readString(WrapRecords.pathUnder(init.home())));
        assertEquals(0, records.get("wraps").size());
    }

    @Test
    void aRecordsFileThatIsNotOursStopsWrappingBeforeAnythingChanges() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path records = WrapRecords.pathUnder(init.home());
        Files.createDirectories(records.getParent());
        Files.writeString(records, "[not ours");
        String text = "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}\n";
        Path file = Files.writeString(tmp.resolve("mcp.json"), text);
        InitRunner.Run run = init.run("cursor", "--wrap", "a", "--config", file.toString());
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + records + " is not a file of wrapped servers stretto"
                + " init reads; move it away; nothing changed\n"), run);
        assertEquals(text, Files.readString(file));
    }

    private void assertLeftAsItWasOrDone(InitRunner.Run run, Path file, byte[] before) throws Exception {
        assertTrue(run.status() == 0 || run.status() == 1, run.toString());
        if (run.status() == 1) {
            assertEquals("", run.out());
            assertTrue(run.err().startsWith("stretto: init: ") && run.err().endsWith("\n")
                    && run.err().indexOf('\n') == run.err().length() - 1, "one line: " + run.err());
            assertArrayEquals(before, Files.readAllBytes(file), "the file was changed: " + run.err());
            try (Stream<Path> files = Files.list(file.getParent())) {
                assertFalse(files.anyMatch(p -> p.toString().endsWith(".bak") || p.toString().endsWith(".tmp")),
                        "a backup or temporary file was left: " + run.err());
            }
        } else {
            assertEquals("", run.err(), run.out());
        }
    }

    private static ObjectMapper lenient() {
        return new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_JAVA_COMMENTS)
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA).build());
    }
}
