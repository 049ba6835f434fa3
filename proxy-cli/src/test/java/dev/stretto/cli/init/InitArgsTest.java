package dev.stretto.cli.init;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code stretto init}'s command line: what it accepts, and the one line it says for what it does not. */
class InitArgsTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "|give the host and the server's name (hosts: claude-desktop, claude-code, cursor, vscode, windsurf, codex, json)",
            "zed orders -- x|no host 'zed'; the hosts are claude-desktop, claude-code, cursor, vscode, windsurf, codex, json",
            "--write cursor|the host comes first (hosts: claude-desktop, claude-code, cursor, vscode, windsurf, codex, json)",
            "cursor -- x|give the server's name after the host (stretto init cursor NAME ... -- SERVER_COMMAND...)",
            "cursor a b -- x|unexpected argument 'b' (the server command goes after --)",
            "cursor 'my server' -- x|the server's name 'my server' may hold letters, digits, '.', '_' and '-', and starts with a letter or digit",
            "cursor a --env NOPE -- x|--env needs KEY=VALUE, KEY a variable's name (letters, digits and _), not '...'",
            "cursor a --env 1X=v -- x|--env needs KEY=VALUE, KEY a variable's name (letters, digits and _), not '1X'",
            "cursor a --env K=1 --env K=2 -- x|--env K is given more than once",
            "cursor a --record|--record needs a value",
            "cursor a --record /r --no-record -- x|give --record DIR or --no-record, not both",
            "cursor a --config f.json -- x|--config names the file --write writes; give --write too, or leave --config out to print the entry",
            "cursor a --all -- x|--all goes with --wrap or --unwrap",
            "cursor a --gaurds -- x|stretto-proxy would refuse the entry's arguments: unknown option --gaurds",
            "cursor a|stretto-proxy would refuse the entry's arguments: missing the server: give the server as -- SERVER_COMMAND... (e.g. stretto-proxy -- npx -y some-mcp-server) or as --upstream URL",
            "cursor a --guards -- x|stretto-proxy would refuse the entry's arguments: no guards for a",
            "cursor a --upstream ftp://x|stretto-proxy would refuse the entry's arguments: --upstream: the upstream must be an http:// or https:// URL with a host, not ftp://x",
            "cursor --wrap|--wrap needs the servers' names, or --all (not both)",
            "cursor --wrap a --all|--wrap needs the servers' names, or --all (not both)",
            "cursor --wrap a -- x|--wrap takes the servers from the host's file; no command after --",
            "cursor --wrap a --env K=v|--env is for a new entry; --wrap keeps each server's env",
            "cursor --unwrap a --guards|--unwrap takes no proxy options: it gives the entries back as they were",
            "cursor --wrap a --unwrap|give --wrap or --unwrap, once",
            "cursor a --write=yes -- x|--write takes no value"})
    void aCommandLineThatCannotBeRunIsOneLineAndStatus2(String line, String message) throws Exception {
        List<String> args = line == null ? List.of() : split(line);
        InitRunner.Run run = InitRunner.in(tmp).run(args.toArray(String[]::new));
        assertEquals(new InitRunner.Run(2, "", "stretto: init: " + message + " (see 'stretto init --help')\n"), run);
    }

    @Test
    void relativePathsInTheEntryAreMadeAbsoluteAndOptionsKeepTheirOrder() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        InitRunner.Run run = init.run("json", "shop", "--record", "logs", "--guards", "--domain", "retail",
                "--context=ctx.jsonl", "--agent-model", "gpt-4.1", "--", "./server.sh", "--port", "0");
        assertEquals(0, run.status(), run.err());
        JsonNode entry = new ObjectMapper().readTree(run.out()).at("/mcpServers/shop");
        String work = init.work().toString();
        assertEquals(List.of("--record", work + "/logs", "--domain", "retail", "--guards", "--context",
                work + "/ctx.jsonl", "--agent-model", "gpt-4.1", "--", work + "/server.sh", "--port", "0"),
                new ObjectMapper().convertValue(entry.get("args"), List.class));
    }

    @Test
    void withoutAKnownStrettoProxyTheEntryNamesTheOneOnThePathAndSaysSo() throws Exception {
        InitRunner init = InitRunner.in(tmp);
        InitContext noProxy = new InitContext(init.home(), init.work(), HostOs.LINUX, java.util.Map.of(), null,
                init.context().clock());
        InitRunner.Run run = new InitRunner(noProxy).run("cursor", "a", "--", "x");
        assertEquals(0, run.status());
        assertEquals("stretto-proxy", new ObjectMapper().readTree(run.out()).at("/mcpServers/a/command").asText());
        assertTrue(run.err().startsWith("stretto: init: which stretto-proxy to run is not known"), run.err());
    }

    @Test
    void theHelpListsEveryHostWithItsFilesOnLinuxAndMacOsAndExamples() throws Exception {
        InitRunner.Run run = InitRunner.in(tmp).run("--help");
        assertEquals(0, run.status());
        for (Host h : Host.values()) {
            assertTrue(run.out().contains("\n  " + h.id() + " "), h.id());
        }
        for (String place : List.of("~/.config/Claude/claude_desktop_config.json",
                "~/Library/Application Support/Claude/claude_desktop_config.json", ".mcp.json", "~/.cursor/mcp.json",
                ".vscode/mcp.json", "~/.config/Code/User/mcp.json", "~/Library/Application Support/Code/User/mcp.json",
                "~/.codeium/windsurf/mcp_config.json", "~/.codex/config.toml", "Examples:", "Exit status:")) {
            assertTrue(run.out().contains(place), place);
        }
        assertEquals(run, InitRunner.in(tmp).run("cursor", "orders", "-h"));
    }

    private static List<String> split(String line) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return out;
    }
}
