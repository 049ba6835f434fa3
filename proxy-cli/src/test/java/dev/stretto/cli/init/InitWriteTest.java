package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto init --write}: the entry goes into the host's file, every other byte of the
 * file stays as it was, a backup comes first, a second run changes nothing; files it must not
 * change (not valid, read-only, comments it would lose) are left exactly as they were.
 */
class InitWriteTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static final String CURSOR_FILE = """
            {
                "mcpServers": {
                    "github": {
                        "command": "docker",
                        "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
                        "env": {"GITHUB_TOKEN": "ghp_x"}
                    }
                },
                "other": [1, 2.50, true, null]
            }
            """;

    private InitRunner.Run write(InitRunner init, String host, Path file, String... rest) {
        String[] args = Stream.concat(Stream.of(host, "orders", "--write", "--config", file.toString()),
                Stream.of(rest)).toArray(String[]::new);
        return init.run(args);
    }

    @Test
    void anEntryIsAddedAfterTheOthersInTheFilesOwnIndentationAndTheRestStaysByteForByte() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = Files.writeString(tmp.resolve("mcp.json"), CURSOR_FILE);
        InitRunner.Run run = write(init, "cursor", file, "--", "npx", "-y", "srv");
        Path backup = tmp.resolve("mcp.json.20261201-100000.bak");
        assertEquals(new InitRunner.Run(0, "added orders in " + file + " (the file as it was: " + backup + ")\n", ""),
                run);
        assertEquals(CURSOR_FILE, Files.readString(backup));
        String expected = """
                {
                    "mcpServers": {
                        "github": {
                            "command": "docker",
                            "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
                            "env": {"GITHUB_TOKEN": "ghp_x"}
                        },
                        "orders": {
                            "command": "/opt/stretto/bin/stretto-proxy",
                            "args": [
                                "--record",
                                "~/.stretto/logs/orders",
                                "--domain",
                                "orders",
                                "--",
                                "npx",
                                "-y",
                                "srv"
                            ]
                        }
                    },
                    "other": [1, 2.50, true, null]
                }
                """;
        assertEquals(expected, Files.readString(file));
    }

    @Test
    void writingTheSameEntryAgainChangesNothingAndMakesNoSecondBackup() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = Files.writeString(tmp.resolve("mcp.json"), CURSOR_FILE);
        assertEquals(0, write(init, "cursor", file, "--", "npx", "srv").status());
        String once = Files.readString(file);
        InitRunner later = init.withClock(java.time.Instant.parse("2026-12-01T11:00:00Z"));
        assertEquals(new InitRunner.Run(0, file + " has orders as given already; nothing changed\n", ""),
                write(later, "cursor", file, "--", "npx", "srv"));
        assertEquals(once, Files.readString(file));
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of("home", "mcp.json", "mcp.json.20261201-100000.bak", "work"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void anEntryOfTheSameNameIsReplacedWhereItStands() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = "{\n  \"mcpServers\": {\n    \"orders\": {\"command\": \"old\"},\n    \"b\": {\"command\": \"b\"}\n  }\n}\n";
        Path file = Files.writeString(tmp.resolve("c.json"), before);
        InitRunner.Run run = write(init, "json", file, "--no-record", "--", "new-server");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("replaced orders in "), run.out());
        assertEquals("{\n  \"mcpServers\": {\n    \"orders\": {\n      \"command\": \"/opt/stretto/bin/stretto-proxy\",\n"
                + "      \"args\": [\n        \"--domain\",\n        \"orders\",\n        \"--\",\n        \"new-server\"\n"
                + "      ]\n    },\n    \"b\": {\"command\": \"b\"}\n  }\n}\n", Files.readString(file));
    }

    @Test
    void tabsCrlfAndAOneLineFileKeepTheirStyle() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path tabs = Files.writeString(tmp.resolve("tabs.json"), "{\r\n\t\"mcpServers\": {\r\n\t\t\"a\": {\"command\": \"a\"}\r\n\t}\r\n}\r\n");
        assertEquals(0, write(init, "windsurf", tabs, "--no-record", "--", "x").status());
        assertEquals("{\r\n\t\"mcpServers\": {\r\n\t\t\"a\": {\"command\": \"a\"},\r\n\t\t\"orders\": {\r\n"
                + "\t\t\t\"command\": \"/opt/stretto/bin/stretto-proxy\",\r\n\t\t\t\"args\": [\r\n\t\t\t\t\"--domain\",\r\n"
                + "\t\t\t\t\"orders\",\r\n\t\t\t\t\"--\",\r\n\t\t\t\t\"x\"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n",
                Files.readString(tabs));
        Path line = Files.writeString(tmp.resolve("line.json"), "{\"mcpServers\":{\"a\":{\"command\":\"a\"}},\"z\":1}");
        assertEquals(0, write(init, "claude-desktop", line, "--no-record", "--", "x").status());
        assertEquals("{\"mcpServers\":{\"a\":{\"command\":\"a\"},\"orders\":{\"command\":\"/opt/stretto/bin/stretto-proxy\","
                + "\"args\":[\"--domain\",\"orders\",\"--\",\"x\"]}},\"z\":1}", Files.readString(line));
    }

    @Test
    void aFileWithoutTheServersObjectGetsOneAndVsCodeSettingsKeepThemUnderMcp() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path desktop = Files.writeString(tmp.resolve("claude_desktop_config.json"), "{\n  \"globalShortcut\": \"Ctrl+Space\"\n}\n");
        assertEquals(0, write(init, "claude-desktop", desktop, "--no-record", "--", "x").status());
        JsonNode d = JSON.readTree(Files.readString(desktop));
        assertEquals("Ctrl+Space", d.get("globalShortcut").asText());
        assertEquals("/opt/stretto/bin/stretto-proxy", d.at("/mcpServers/orders/command").asText());
        assertTrue(Files.readString(desktop).startsWith("{\n  \"globalShortcut\": \"Ctrl+Space\",\n  \"mcpServers\": {\n    \"orders\": {\n"));

        Path settings = Files.createDirectories(tmp.resolve("User")).resolve("settings.json");
        Files.writeString(settings, "{\n  // my editor\n  \"editor.fontSize\": 14,\n}\n");
        InitRunner.Run run = write(init, "vscode", settings, "--no-record", "--", "x");
        assertEquals(0, run.status(), run.err());
        String text = Files.readString(settings);
        assertTrue(text.startsWith("{\n  // my editor\n  \"editor.fontSize\": 14,\n  \"mcp\": {\n    \"servers\": {\n"
                + "      \"orders\": {\n        \"type\": \"stdio\",\n"), text);
        assertTrue(text.endsWith("    }\n  },\n}\n"), text);
    }

    @Test
    void vsCodeCommentsAndTrailingCommasStayWhereTheyAre() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = """
                {
                  // servers of this workspace
                  "servers": {
                    /* the demo */
                    "demo": {"type": "stdio", "command": "demo"}, // trailing
                  },
                  "inputs": [],
                }
                """;
        Path file = Files.writeString(tmp.resolve("mcp.json"), before);
        InitRunner.Run run = write(init, "vscode", file, "--no-record", "--", "x");
        assertEquals(0, run.status(), run.err());
        String after = Files.readString(file);
        assertTrue(after.startsWith("""
                {
                  // servers of this workspace
                  "servers": {
                    /* the demo */
                    "demo": {"type": "stdio", "command": "demo"},
                    "orders": {
                      "type": "stdio",
                """), after);
        assertTrue(after.contains("""
                      ]
                    }, // trailing
                  },
                  "inputs": [],
                }
                """), after);
    }

    @Test
    void codexsTomlKeepsItsCommentsAndOtherTablesAndTheEntryIsAddedAtTheEnd() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = """
                # my Codex settings
                model = "o3"

                [mcp_servers.docs]
                command = "npx"
                args = [
                  "-y", # the flag
                  "docs-mcp",
                ]

                # the profiles
                [profiles.fast]
                model = "o4-mini"
                """;
        Path file = Files.writeString(tmp.resolve("config.toml"), before);
        InitRunner.Run run = write(init, "codex", file, "--env", "K=v", "--", "npx", "orders");
        assertEquals(0, run.status(), run.err());
        assertEquals(before + "\n[mcp_servers.orders]\ncommand = \"/opt/stretto/bin/stretto-proxy\"\nargs = [\"--record\","
                + " \"~/.stretto/logs/orders\", \"--domain\", \"orders\", \"--\", \"npx\", \"orders\"]\nenv = { K = \"v\" }\n",
                Files.readString(file));
        JsonNode tree = new TomlMapper().readTree(Files.readString(file));
        assertEquals("o4-mini", tree.at("/profiles/fast/model").asText());
        assertEquals(List.of("-y", "docs-mcp"), List.of(tree.at("/mcp_servers/docs/args/0").asText(),
                tree.at("/mcp_servers/docs/args/1").asText()));
    }

    @Test
    void codexsEntryIsReplacedWithItsSubTablesWhereTheFirstOfThemStood() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = "[mcp_servers.orders]\ncommand = \"old\"\n\n[other]\nx = 1\n\n[mcp_servers.orders.env]\nA = \"b\"\n";
        Path file = Files.writeString(tmp.resolve("config.toml"), before);
        InitRunner.Run run = write(init, "codex", file, "--no-record", "--", "new");
        assertEquals(0, run.status(), run.err());
        assertEquals("[mcp_servers.orders]\ncommand = \"/opt/stretto/bin/stretto-proxy\"\nargs = [\"--domain\", \"orders\","
                + " \"--\", \"new\"]\n\n[other]\nx = 1\n\n", Files.readString(file));
    }

    @Test
    void theUsualFilesAreTheHostsOwnOnLinuxAndMacOs() throws Exception {
        Map<Host, String> linux = Map.of(Host.CLAUDE_DESKTOP, "home/.config/Claude/claude_desktop_config.json",
                Host.CLAUDE_CODE, "work/.mcp.json", Host.CURSOR, "home/.cursor/mcp.json",
                Host.VSCODE, "work/.vscode/mcp.json", Host.WINDSURF, "home/.codeium/windsurf/mcp_config.json",
                Host.CODEX, "home/.codex/config.toml");
        InitRunner onLinux = InitRunner.in(tmp);
        for (Map.Entry<Host, String> e : linux.entrySet()) {
            assertEquals(tmp.resolve(e.getValue()), e.getKey().usualFile(onLinux.context()).orElseThrow(), e.getKey().id());
        }
        InitRunner onMac = InitRunner.in(tmp, HostOs.MACOS, Map.of());
        assertEquals(tmp.resolve("home/Library/Application Support/Claude/claude_desktop_config.json"),
                Host.CLAUDE_DESKTOP.usualFile(onMac.context()).orElseThrow());
        InitRunner withEnv = InitRunner.in(tmp, HostOs.LINUX, Map.of("XDG_CONFIG_HOME", tmp.resolve("xdg").toString(),
                "CODEX_HOME", tmp.resolve("codex").toString()));
        assertEquals(tmp.resolve("xdg/Claude/claude_desktop_config.json"),
                Host.CLAUDE_DESKTOP.usualFile(withEnv.context()).orElseThrow());
        assertEquals(tmp.resolve("codex/config.toml"), Host.CODEX.usualFile(withEnv.context()).orElseThrow());
        assertTrue(Host.JSON.usualFile(onLinux.context()).isEmpty());

        // Without --config, --write writes the usual file, making its directory.
        InitRunner.Run run = onLinux.run("windsurf", "orders", "--write", "--", "npx", "srv");
        assertEquals(0, run.status(), run.err());
        assertTrue(Files.isRegularFile(tmp.resolve("home/.codeium/windsurf/mcp_config.json")));
        assertEquals(new InitRunner.Run(2, "", "stretto: init: json has no usual file; give --config FILE (see 'stretto"
                + " init --help')\n"), onLinux.run("json", "orders", "--write", "--", "x"));
    }

    @Test
    void aLinkedConfigFileIsWrittenWhereItIsAndTheLinkStays() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path real = Files.writeString(Files.createDirectories(tmp.resolve("dotfiles")).resolve("mcp.json"), CURSOR_FILE);
        Path link = Files.createSymbolicLink(tmp.resolve("mcp.json"), real);
        assertEquals(0, write(init, "cursor", link, "--", "x").status());
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).contains("\"orders\""));
        assertEquals(CURSOR_FILE, Files.readString(tmp.resolve("dotfiles/mcp.json.20261201-100000.bak")));
    }

    @Test
    void aReadOnlyFileIsLeftAsItIsEvenForRoot() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        Path file = Files.writeString(tmp.resolve("mcp.json"), CURSOR_FILE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        InitRunner.Run run = write(init, "cursor", file, "--", "x");
        assertEquals(new InitRunner.Run(1, "", "stretto: init: " + file + " is read-only; nothing changed (make it"
                + " writable, or give --config another file)\n"), run);
        assertEquals(CURSOR_FILE, Files.readString(file));
        assertNoBackupIn(tmp);
    }

    @Test
    void commentsInAFileWhoseHostReadsPlainJsonAreRefused() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = "{\n  // mine\n  \"mcpServers\": {}\n}\n";
        Path file = Files.writeString(tmp.resolve("claude_desktop_config.json"), before);
        InitRunner.Run run = write(init, "claude-desktop", file, "--", "x");
        assertEquals(1, run.status());
        assertTrue(run.err().startsWith("stretto: init: " + file + " has comments or trailing commas (")
                && run.err().endsWith("which Claude Desktop does not read; nothing changed\n"), run.err());
        assertEquals(before, Files.readString(file));
        assertNoBackupIn(tmp);
    }

    @Test
    void anEntryWithCommentsInsideWouldLoseThemAndIsLeftAsItIs() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        String before = "{\n  \"servers\": {\n    \"orders\": {\n      // keep me\n      \"command\": \"x\"\n    }\n  }\n}\n";
        Path file = Files.writeString(tmp.resolve("mcp.json"), before);
        InitRunner.Run run = write(init, "vscode", file, "--", "y");
        assertEquals(new InitRunner.Run(1, "", "stretto: init: orders's entry in " + file + " has comments inside it,"
                + " which writing it anew would lose; take them out or edit the entry by hand; nothing changed\n"), run);
        assertEquals(before, Files.readString(file));

        String toml = "[mcp_servers.orders]\ncommand = \"x\" # mine\n";
        Path config = Files.writeString(tmp.resolve("config.toml"), toml);
        InitRunner.Run codex = write(init, "codex", config, "--", "y");
        assertEquals(1, codex.status());
        assertTrue(codex.err().contains("have comments inside them"), codex.err());
        assertEquals(toml, Files.readString(config));
        assertNoBackupIn(tmp);
    }

    private static void assertNoBackupIn(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            assertFalse(files.anyMatch(p -> p.toString().endsWith(".bak") || p.toString().endsWith(".tmp")),
                    "a backup or temporary file was left");
        }
    }
}
