package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code stretto init --wrap} and {@code --unwrap} on each host's file as people keep them:
 * servers started as commands (with and without args, env and other keys) and servers reached
 * over HTTP. Wrapping then unwrapping gives the file back byte for byte, so each entry's JSON
 * value is the same; an entry changed since, or written by --write, is unwrapped from the
 * proxy's arguments; one stretto init did not wrap is left as it is.
 */
class InitWrapTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TomlMapper TOML = new TomlMapper();

    @TempDir
    Path tmp;

    /** A file of each host's, as its users keep one. */
    static String fileOf(Host host) {
        return switch (host) {
            case CLAUDE_DESKTOP -> """
                    {
                      "mcpServers": {
                        "filesystem": {
                          "command": "npx",
                          "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
                        },
                        "weather": {
                          "command": "uv",
                          "args": ["--directory", "/home/me/weather", "run", "weather.py"],
                          "env": {"WEATHER_KEY": "k-1"}
                        },
                        "bare": {"command": "/usr/local/bin/bare-server"}
                      },
                      "globalShortcut": ""
                    }
                    """;
            case CLAUDE_CODE -> """
                    {
                      "mcpServers": {
                        "db": {
                          "type": "stdio",
                          "command": "npx",
                          "args": ["-y", "@bytebase/dbhub", "--dsn", "postgres://localhost/app"],
                          "env": {}
                        },
                        "sentry": {
                          "type": "http",
                          "url": "https://mcp.sentry.dev/mcp",
                          "headers": {"Authorization": "Bearer ${SENTRY_TOKEN}"}
                        }
                      }
                    }
                    """;
            case CURSOR -> """
                    {
                      "mcpServers": {
                        "browser": {"command": "npx", "args": ["@browsermcp/mcp@latest"]},
                        "remote": {
                          "url": "https://api.example.com/mcp",
                          "headers": {"Authorization": "Bearer abc", "X-Team": "core"}
                        }
                      }
                    }
                    """;
            case VSCODE -> """
                    {
                      // Workspace servers
                      "inputs": [
                        {"type": "promptString", "id": "token", "description": "Token", "password": true}
                      ],
                      "servers": {
                        "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]},
                        "github": {
                          "type": "http",
                          "url": "https://api.githubcopilot.com/mcp/",
                          "headers": {"Authorization": "Bearer ${input:token}"}
                        }, // the hosted one
                      }
                    }
                    """;
            case WINDSURF -> """
                    {
                      "mcpServers": {
                        "git": {"command": "uvx", "args": ["mcp-server-git"], "disabled": false, "env": {}},
                        "figma": {"serverUrl": "https://mcp.figma.com/mcp"}
                      }
                    }
                    """;
            case CODEX -> """
                    # Codex
                    model = "o3"

                    [mcp_servers.context7]
                    command = "npx"
                    args = ["-y", "@upstash/context7-mcp"]
                    startup_timeout_sec = 20

                    [mcp_servers.context7.env]
                    LOG = "1"

                    # remote, keys from the environment
                    [mcp_servers.linear]
                    url = "https://mcp.linear.app/mcp"
                    env_http_headers = { "X-Api-Key" = "LINEAR_KEY" }
                    http_headers = { "X-Client" = "codex" }
                    """;
            case JSON -> """
                    {"mcpServers": {"echo": {"command": "echo-server", "args": []}}}
                    """;
        };
    }

    private Path fileFor(Host host) throws Exception {
        return Files.writeString(tmp.resolve(host == Host.CODEX ? "config.toml" : "mcp.json"), fileOf(host));
    }

    private static JsonNode read(Host host, String text) throws Exception {
        if (host == Host.CODEX) {
            return TOML.readTree(text);
        }
        return new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_JAVA_COMMENTS)
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA).build()).readTree(text);
    }

    private static JsonNode servers(Host host, JsonNode doc) {
        return switch (host) {
            case VSCODE -> doc.get("servers");
            case CODEX -> doc.get("mcp_servers");
            default -> doc.get("mcpServers");
        };
    }

    @ParameterizedTest
    @EnumSource(Host.class)
    void wrapThenUnwrapGivesTheFileBackByteForByte(Host host) throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(host);
        String before = Files.readString(file);

        InitRunner.Run wrap = init.run(host.id(), "--wrap", "--all", "--config", file.toString());
        assertEquals(0, wrap.status(), wrap.err());
        JsonNode wrapped = servers(host, read(host, Files.readString(file)));
        JsonNode original = servers(host, read(host, before));
        for (String name : names(original)) {
            JsonNode entry = wrapped.get(name);
            assertEquals(InitRunner.PROXY, entry.get("command").asText(), name + ": " + entry);
            List<String> args = strings(entry.get("args"));
            assertEquals(List.of("--record", "~/.stretto/logs/" + name, "--domain", name), args.subList(0, 4), name);
            if (original.get(name).has("command")) {
                List<String> server = new ArrayList<>(List.of(original.get(name).get("command").asText()));
                server.addAll(strings(original.get(name).get("args")));
                assertEquals(server, args.subList(args.indexOf("--") + 1, args.size()), name);
                assertEquals(original.get(name).get("env"), entry.get("env"), name + "'s env is kept");
            } else {
                assertTrue(args.contains("--upstream"), name + ": " + args);
            }
        }

        InitRunner.Run unwrap = init.run(host.id(), "--unwrap", "--all", "--config", file.toString());
        assertEquals(0, unwrap.status(), unwrap.err());
        assertEquals(before, Files.readString(file));
        try (Stream<Path> backups = Files.list(tmp)) {
            assertEquals(2, backups.filter(p -> p.toString().endsWith(".bak")).count(), "one backup for each write");
        }
    }

    /**
     * An entry that runs through the proxy but that stretto init did not wrap (its record gone,
     * or written by hand): what it was without the proxy is not known, so it is left byte for
     * byte as it is, named with the reason, for --all and by name alike.
     */
    @ParameterizedTest
    @EnumSource(Host.class)
    void withoutARecordAnEntryThatRunsThroughTheProxyIsLeftByteForByte(Host host) throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(host);
        JsonNode original = servers(host, read(host, Files.readString(file)));
        assertEquals(0, init.run(host.id(), "--wrap", "--all", "--config", file.toString()).status());
        Path records = WrapRecords.pathUnder(init.home());
        Files.delete(records);
        byte[] wrapped = Files.readAllBytes(file);

        InitRunner.Run all = init.run(host.id(), "--unwrap", "--all", "--config", file.toString());
        StringBuilder expected = new StringBuilder();
        for (String name : names(original)) {
            expected.append("left ").append(name).append(" as it is: stretto init did not wrap it (").append(records)
                    .append(" has no record of it); edit it by hand to run it without stretto-proxy\n");
        }
        expected.append("nothing changed in ").append(file).append('\n');
        assertEquals(new InitRunner.Run(0, expected.toString(), ""), all);
        assertArrayEquals(wrapped, Files.readAllBytes(file));

        String first = names(original).getFirst();
        InitRunner.Run named = init.run(host.id(), "--unwrap", first, "--config", file.toString());
        assertEquals(0, named.status(), named.err());
        assertTrue(named.out().startsWith("left " + first + " as it is: stretto init did not wrap it"), named.out());
        assertArrayEquals(wrapped, Files.readAllBytes(file));
        try (Stream<Path> backups = Files.list(tmp)) {
            assertEquals(1, backups.filter(p -> p.toString().endsWith(".bak")).count(), "only the wrap's backup");
        }
    }

    @Test
    void anEntryWrittenByHandToRunThroughTheProxyIsLeftAsItIs() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String text = """
                {
                  "mcpServers": {
                    "byhand": {"command": "/opt/bin/stretto-proxy", "args": ["--", "my-server"]}
                  }
                }
                """;
        Path file = Files.writeString(tmp.resolve("mcp.json"), text);
        InitRunner.Run run = init.run("json", "--unwrap", "--all", "--config", file.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("left byhand as it is: stretto init did not wrap it"), run.out());
        assertEquals(text, Files.readString(file));
    }

    @Test
    void anHttpServersLiteralHeadersMoveIntoTheEnvBlockUnderVariablesTheEntryNames() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.CURSOR);
        assertEquals(0, init.run("cursor", "--wrap", "remote", "--config", file.toString()).status());
        JsonNode remote = JSON.readTree(Files.readString(file)).at("/mcpServers/remote");
        assertEquals(JSON.readTree("""
                {"command": "/opt/stretto/bin/stretto-proxy",
                 "args": ["--record", "~/.stretto/logs/remote", "--domain", "remote",
                          "--upstream", "https://api.example.com/mcp",
                          "--upstream-header", "Authorization=REMOTE_AUTHORIZATION",
                          "--upstream-header", "X-Team=REMOTE_X_TEAM"],
                 "env": {"REMOTE_AUTHORIZATION": "Bearer abc", "REMOTE_X_TEAM": "core"}}
                """), remote);
        // The other server was not named: it stays as it was.
        assertEquals("npx", JSON.readTree(Files.readString(file)).at("/mcpServers/browser/command").asText());
    }

    /**
     * Servers the host signs in to: Claude Code's {@code oauth} and Cursor's {@code auth} become
     * the proxy's --oauth-* options, which sign in in the host's place; a client secret is not
     * copied (the output says so), and unwrapping gives the blocks back.
     */
    @Test
    void serversTheHostSignsInToAreWrappedWithTheProxysOAuthOptionsAndNoSecret() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path code = Files.writeString(tmp.resolve("code.json"), """
                {"mcpServers": {"notion": {"type": "http", "url": "https://mcp.notion.com/mcp",
                  "oauth": {"clientId": "stretto-notion", "callbackPort": 8912, "scopes": "read write",
                            "authServerMetadataUrl": "https://auth.notion.com/.well-known/x"}}}}
                """);
        InitRunner.Run run = init.run("claude-code", "--wrap", "notion", "--no-record", "--config", code.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("  note: its oauth.authServerMetadataUrl has no stretto-proxy option"), run.out());
        assertEquals(JSON.readTree("""
                {"type": "stdio", "command": "/opt/stretto/bin/stretto-proxy",
                 "args": ["--domain", "notion", "--upstream", "https://mcp.notion.com/mcp",
                          "--oauth-client-id", "stretto-notion", "--oauth-callback-port", "8912",
                          "--oauth-scope", "read write"]}
                """), JSON.readTree(Files.readString(code)).at("/mcpServers/notion"));
        // Changed after it was wrapped, it is unwrapped from its arguments: the oauth block comes
        // back without what had no option.
        ObjectNode changed = (ObjectNode) JSON.readTree(Files.readString(code));
        ((ArrayNode) changed.at("/mcpServers/notion/args")).add("--log-level").add("warn");
        Files.writeString(code, JSON.writeValueAsString(changed));
        assertEquals(0, init.run("claude-code", "--unwrap", "notion", "--config", code.toString()).status());
        assertEquals(JSON.readTree("""
                {"type": "http", "url": "https://mcp.notion.com/mcp",
                 "oauth": {"clientId": "stretto-notion", "callbackPort": 8912, "scopes": "read write"}}
                """), JSON.readTree(Files.readString(code)).at("/mcpServers/notion"));

        Path cursor = Files.writeString(tmp.resolve("cursor.json"), """
                {"mcpServers": {"linear": {"url": "https://mcp.linear.app/mcp",
                  "auth": {"CLIENT_ID": "cid-1", "CLIENT_SECRET": "cs-very-secret-1", "scopes": ["read", "write"]}}}}
                """);
        InitRunner.Run wrapped = init.run("cursor", "--wrap", "linear", "--no-record", "--config", cursor.toString());
        assertEquals(0, wrapped.status(), wrapped.err());
        assertTrue(wrapped.out().contains("  note: the client secret in its auth was not copied: put it in a file of"
                + " your own and add --oauth-client-secret-file FILE"), wrapped.out());
        String text = Files.readString(cursor);
        assertTrue(!text.contains("cs-very-secret-1") && !wrapped.out().contains("cs-very-secret-1"), text);
        assertEquals(JSON.readTree("""
                {"command": "/opt/stretto/bin/stretto-proxy",
                 "args": ["--domain", "linear", "--upstream", "https://mcp.linear.app/mcp",
                          "--oauth-client-id", "cid-1", "--oauth-scope", "read write"]}
                """), JSON.readTree(text).at("/mcpServers/linear"));
        // With its record, unwrapping gives the entry back as it was, the secret too.
        assertEquals(0, init.run("cursor", "--unwrap", "linear", "--config", cursor.toString()).status());
        assertTrue(Files.readString(cursor).contains("cs-very-secret-1"));
    }

    @Test
    void codexsHeadersFromTheEnvironmentAreForwardedToTheProxy() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.CODEX);
        InitRunner.Run run = init.run("codex", "--wrap", "linear", "--no-record", "--config", file.toString());
        assertEquals(0, run.status(), run.err());
        JsonNode linear = TOML.readTree(Files.readString(file)).at("/mcp_servers/linear");
        assertEquals(JSON.readTree("""
                {"command": "/opt/stretto/bin/stretto-proxy",
                 "args": ["--domain", "linear", "--upstream", "https://mcp.linear.app/mcp",
                          "--upstream-header", "X-Client=LINEAR_X_CLIENT", "--upstream-header", "X-Api-Key=LINEAR_KEY"],
                 "env": {"LINEAR_X_CLIENT": "codex"},
                 "env_vars": ["LINEAR_KEY"]}
                """), linear);
        // The comment before the table belongs to the file, not the entry: it stays.
        assertTrue(Files.readString(file).contains("# remote, keys from the environment\n[mcp_servers.linear]\n"));
    }

    @Test
    void serversWrappedAlreadyAreLeftAloneAndASecondWrapChangesNothing() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.CLAUDE_DESKTOP);
        assertEquals(0, init.run("claude-desktop", "--wrap", "--all", "--config", file.toString()).status());
        String once = Files.readString(file);
        InitRunner.Run again = init.run("claude-desktop", "--wrap", "--all", "--config", file.toString());
        assertEquals(new InitRunner.Run(0, """
                left filesystem as it is: it runs through stretto-proxy already
                left weather as it is: it runs through stretto-proxy already
                left bare as it is: it runs through stretto-proxy already
                nothing changed in %s
                """.formatted(file), ""), again);
        assertEquals(once, Files.readString(file));
    }

    @Test
    void anEntryWrittenByWriteIsUnwrappedToThePlainServer() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = tmp.resolve("mcp.json");
        assertEquals(0, init.run("cursor", "orders", "--write", "--config", file.toString(), "--env", "K=v", "--",
                "npx", "-y", "orders-mcp").status());
        InitRunner.Run run = init.run("cursor", "--unwrap", "orders", "--config", file.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals(JSON.readTree("{\"command\": \"npx\", \"args\": [\"-y\", \"orders-mcp\"], \"env\": {\"K\": \"v\"}}"),
                JSON.readTree(Files.readString(file)).at("/mcpServers/orders"));

        // An HTTP entry made with --write comes back as the host's HTTP entry.
        assertEquals(0, init.run("vscode", "docs", "--write", "--config", file.toString(), "--upstream",
                "https://mcp.example.com/mcp", "--upstream-header", "Authorization=DOCS_AUTH", "--env",
                "DOCS_AUTH=Bearer t").status());
        assertEquals(0, init.run("vscode", "--unwrap", "docs", "--config", file.toString()).status());
        assertEquals(JSON.readTree("{\"type\": \"http\", \"url\": \"https://mcp.example.com/mcp\","
                + " \"headers\": {\"Authorization\": \"Bearer t\"}}"), JSON.readTree(Files.readString(file)).at("/servers/docs"));
    }

    @Test
    void anEntryChangedAfterItWasWrappedKeepsTheChangeWhenUnwrapped() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.CURSOR);
        assertEquals(0, init.run("cursor", "--wrap", "browser", "--config", file.toString()).status());
        String edited = Files.readString(file).replace("\"@browsermcp/mcp@latest\"", "\"@browsermcp/mcp@0.2\"");
        Files.writeString(file, edited);
        InitRunner.Run run = init.run("cursor", "--unwrap", "browser", "--config", file.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("(it was changed after it was wrapped)"), run.out());
        assertEquals(JSON.readTree("{\"command\": \"npx\", \"args\": [\"@browsermcp/mcp@0.2\"]}"),
                JSON.readTree(Files.readString(file)).at("/mcpServers/browser"));
    }

    @Test
    void aNamedServerThatCannotBeWrappedLeavesTheFileAsItIsAndAllSkipsIt() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = """
                {"servers": {
                  "events": {"type": "sse", "url": "https://example.com/sse"},
                  "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]}
                }}
                """;
        Path file = Files.writeString(tmp.resolve("mcp.json"), before);
        InitRunner.Run named = init.run("vscode", "--wrap", "events", "fetch", "--config", file.toString());
        assertEquals(new InitRunner.Run(1, "", "stretto: init: cannot wrap events: it uses the SSE transport, and"
                + " stretto-proxy --upstream speaks Streamable HTTP; nothing changed\n"), named);
        assertEquals(before, Files.readString(file));

        InitRunner.Run all = init.run("vscode", "--wrap", "--all", "--config", file.toString());
        assertEquals(0, all.status(), all.err());
        assertTrue(all.out().startsWith("left events as it is: it uses the SSE transport, and stretto-proxy --upstream"
                + " speaks Streamable HTTP\nwrapped fetch: it runs through /opt/stretto/bin/stretto-proxy, recording to"
                + " ~/.stretto/logs/fetch\n"), all.out());
        JsonNode servers = JSON.readTree(Files.readString(file)).get("servers");
        assertEquals(JSON.readTree(before).at("/servers/events"), servers.get("events"));
    }

    @Test
    void aServerTheFileDoesNotHaveIsNamedWithTheOnesItHas() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.WINDSURF);
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + file + " has no server gti (it has git, figma);"
                + " nothing changed\n"), init.run("windsurf", "--wrap", "gti", "--config", file.toString()));
    }

    @Test
    void recordsAreKeptForTheirOwnerOnly() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = fileFor(Host.CLAUDE_DESKTOP);
        assertEquals(0, init.run("claude-desktop", "--wrap", "weather", "--config", file.toString()).status());
        Path records = WrapRecords.pathUnder(init.home());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(records)));
        JsonNode wraps = JSON.readTree(Files.readString(records)).get("wraps");
        assertEquals(1, wraps.size());
        assertEquals(file.toRealPath().toString(), wraps.get(0).get("file").asText());
    }

    private static List<String> names(JsonNode servers) {
        List<String> out = new ArrayList<>();
        servers.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(a -> out.add(a.asText()));
        }
        return out;
    }
}
