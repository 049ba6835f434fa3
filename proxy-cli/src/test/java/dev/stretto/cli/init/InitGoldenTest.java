package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code stretto init} prints for each host, against golden files checked by hand against
 * the host's documented format (src/test/resources/golden/init/): a server started as a
 * command, with an env block, and one reached over HTTP with its header's value in the env
 * block. What --write puts into a new file is the same entry.
 */
class InitGoldenTest {

    static final String[] COMMAND = {"orders", "--env", "ORDERS_API_KEY=sk-test", "--", "npx", "-y",
            "@acme/orders-mcp"};
    static final String[] HTTP = {"docs", "--upstream", "https://mcp.example.com/mcp", "--upstream-header",
            "Authorization=DOCS_AUTH", "--env", "DOCS_AUTH=Bearer sk-test"};

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(Host.class)
    void aServerStartedAsACommandIsPrintedInTheHostsOwnFormat(Host host) throws Exception {
        InitRunner.Run run = InitRunner.in(tmp).run(args(host, COMMAND));
        assertEquals(new InitRunner.Run(0, golden(host.id() + ".txt"), ""), run);
    }

    @ParameterizedTest
    @EnumSource(Host.class)
    void aServerReachedOverHttpIsPrintedWithItsHeaderFromTheEnvBlock(Host host) throws Exception {
        InitRunner.Run run = InitRunner.in(tmp).run(args(host, HTTP));
        assertEquals(new InitRunner.Run(0, golden(host.id() + "-http.txt"), ""), run);
    }

    @ParameterizedTest
    @EnumSource(Host.class)
    void writeMakesAMissingFileHoldingThePrintedEntry(Host host) throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = tmp.resolve("new dir/" + (host == Host.CODEX ? "config.toml" : "mcp.json"));
        String[] args = args(host, COMMAND);
        String[] writing = java.util.stream.Stream.concat(java.util.Arrays.stream(args).limit(2),
                java.util.stream.Stream.concat(java.util.stream.Stream.of("--write", "--config", file.toString()),
                        java.util.Arrays.stream(args).skip(2))).toArray(String[]::new);
        InitRunner.Run run = init.run(writing);
        assertEquals(new InitRunner.Run(0, "added orders in " + file + " (a new file)\n", ""), run);
        String printed = golden(host.id() + ".txt");
        String written = Files.readString(file);
        if (host == Host.CODEX) {
            assertEquals(printed, written);
            assertEquals(new TomlMapper().readTree(printed), new TomlMapper().readTree(written));
        } else {
            // claude-code's print has the claude mcp add line after the JSON.
            String json = printed.substring(0, printed.indexOf("}\n\n") < 0 ? printed.length() : printed.indexOf("}\n\n") + 2);
            assertEquals(json, written);
        }
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(file)));
    }

    static String[] args(Host host, String[] rest) {
        String[] out = new String[rest.length + 2];
        out[0] = host.id();
        System.arraycopy(rest, 0, out, 1, 1);
        out[2] = "--proxy=" + InitRunner.PROXY;
        System.arraycopy(rest, 1, out, 3, rest.length - 1);
        return out;
    }

    static String golden(String name) throws IOException {
        try (InputStream in = InitGoldenTest.class.getResourceAsStream("/golden/init/" + name)) {
            if (in == null) {
                throw new IOException("no golden file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The JSON a golden file's first part holds (for tests that compare values). */
    static JsonNode goldenJson(String name) throws IOException {
        String text = golden(name);
        int end = text.indexOf("}\n\n");
        return new ObjectMapper().readTree(end < 0 ? text : text.substring(0, end + 1));
    }

    static List<String> hosts() {
        return java.util.Arrays.stream(Host.values()).map(Host::id).toList();
    }
}
