package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto auth list}, {@code logout} and {@code login}'s usage, on a store in a home of the test's own. */
class AuthCommandsTest {

    record Result(int status, String out, String err) {
    }

    private static Result run(Path home, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stretto.run(args, InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false, false, Map.of("HOME", home.toString()));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theListShowsServersScopesAndExpiryButNoTokenAndLogoutForgets(@TempDir Path home) throws Exception {
        assertEquals(new Result(0, "no sign-ins are kept\n", ""), run(home, "auth", "list"));
        TokenStore store = OAuthLogins.directoryStore(home.resolve(".stretto/auth"));
        URI notion = URI.create("https://mcp.notion.com/mcp");
        store.save(new StoredLogin(notion, notion.toString(), "https://auth.notion.com",
                new StoredLogin.Client("client-7", "cs-secret-77", "client_secret_post", List.of()),
                new StoredLogin.Tokens("at-secret-1234", "rt-secret-5678", Instant.parse("2026-12-01T10:00:00Z"),
                        Instant.parse("2026-12-01T11:00:00Z"), List.of("read", "write"))));
        store.save(new StoredLogin(URI.create("http://127.0.0.1:8080/mcp"), null, "http://127.0.0.1:8080",
                null, null));
        Result list = run(home, "auth", "list");
        assertEquals(0, list.status(), list.err());
        assertEquals("""
                SERVER                      SCOPES      EXPIRES                         REFRESH  CLIENT
                http://127.0.0.1:8080/mcp   -           signed out                      -        -
                https://mcp.notion.com/mcp  read write  2026-12-01T11:00:00Z (expired)  yes      client-7
                """, list.out());
        for (String secret : List.of("at-secret", "rt-secret", "cs-secret")) {
            assertFalse(list.out().contains(secret) || list.err().contains(secret), secret);
        }

        assertEquals(new Result(0, "forgot the sign-in to https://mcp.notion.com/mcp\n", ""),
                run(home, "logout", "https://mcp.notion.com/mcp"));
        assertEquals(new Result(1, "", "stretto: logout: no sign-in is kept for https://mcp.notion.com/mcp\n"),
                run(home, "logout", "https://mcp.notion.com/mcp"));
        assertEquals(new Result(0, "forgot the sign-in to http://127.0.0.1:8080/mcp\n", ""), run(home, "logout", "--all"));
        assertEquals("no sign-ins are kept\n", run(home, "auth", "list").out());
    }

    @Test
    void usageErrorsSayWhatIsWrong(@TempDir Path home) {
        assertEquals(new Result(2, "", "stretto: login: give the server's URL (see 'stretto login --help')\n"),
                run(home, "login"));
        assertEquals(new Result(2, "", "stretto: login: the upstream URL has no scheme (write http://example.com/mcp"
                + " or https://...) (see 'stretto login --help')\n"), run(home, "login", "example.com/mcp"));
        assertEquals(new Result(2, "", "stretto: login: unknown option '--record' (see 'stretto login --help')\n"),
                run(home, "login", "https://e.example/mcp", "--record", "d"));
        assertEquals(new Result(2, "", "stretto: logout: give one URL, or --all (see 'stretto logout --help')\n"),
                run(home, "logout"));
        assertEquals(new Result(2, "", "stretto: auth: unknown subcommand show (list) (see 'stretto auth --help')\n"),
                run(home, "auth", "show"));
        assertEquals(new Result(2, "", "stretto: login: the URL holds user info, which the proxy sends as Basic"
                + " authorization and then does not sign in with OAuth; give the URL without it (see 'stretto login"
                + " --help')\n"), run(home, "login", "https://u:pw@e.example/mcp"));
        assertTrue(run(home, "login", "--help").out().startsWith("Usage: stretto login URL [OPTIONS]"));
    }
}
