package dev.stretto.cli.tools;

import dev.stretto.cli.OAuthArgs;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.OAuthSettings;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.StderrMessages;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.UpstreamSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code stretto login URL}: signs in to an MCP server that needs OAuth now, from a terminal,
 * as the proxy would at its first 401, and keeps the login in {@code ~/.stretto/auth} for the
 * proxies that wrap the server later.
 */
final class LoginCli {

    static final String COMMAND = "login";

    static final String HELP = """
            Usage: stretto login URL [OPTIONS]

            Signs in to the MCP server at URL (Streamable HTTP) that needs OAuth, as
            stretto-proxy --upstream URL would when the server first answers 401: the
            sign-in URL is printed on stderr and opened in the browser, and the login is
            kept in ~/.stretto/auth, where every stretto-proxy for URL finds it. Give the
            same --oauth-* options as the proxy's entry (a pre-registered client, say).

            Options:
              --oauth-client-id ID, --oauth-client-secret-file FILE,
              --oauth-client-key-file FILE, --oauth-client-metadata-url URL,
              --oauth-client-credentials, --oauth-scope SCOPES, --oauth-callback-port PORT,
              --oauth-browser CMD, --oauth-no-browser, --oauth-timeout SECONDS
                                   as for stretto-proxy (see stretto-proxy --help)
              -h, --help           show this help

            Exit status: 0 when signed in (or the server needs no sign-in: stdout says so),
            1 when the sign-in failed (stderr says why), 2 for a usage error.
            """;

    private static final Set<String> HELP_FLAGS = Set.of("--help", "-h");

    private LoginCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) throws UsageException {
        Set<String> flags = new HashSet<>(OAuthArgs.FLAGS);
        flags.addAll(HELP_FLAGS);
        Args a = Args.parse(COMMAND, args, 1, flags, Set.copyOf(OAuthArgs.WITH_VALUE));
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        if (a.operands().size() != 1) {
            throw new UsageException(COMMAND, a.operands().isEmpty() ? "give the server's URL" : "give one URL");
        }
        UpstreamSpec.Http spec;
        try {
            URI endpoint = UpstreamSpec.Http.parseEndpoint(a.operands().getFirst());
            if (endpoint.getRawUserInfo() != null) {
                throw new IllegalArgumentException("the URL holds user info, which the proxy sends as Basic"
                        + " authorization and then does not sign in with OAuth; give the URL without it");
            }
            OAuthSettings settings = OAuthArgs.parse(a.values(), a.flags(), true).settings(env);
            spec = new UpstreamSpec.Http(endpoint, List.of(), settings);
        } catch (IllegalArgumentException e) {
            throw new UsageException(COMMAND, e.getMessage());
        }
        HostEnvironment host = HostEnvironment.of(env, -1);
        AtomicInteger status = new AtomicInteger(Stretto.EXIT_OK);
        ProxyMessages messages = StderrMessages.at(ProxyMessages.Level.INFO);
        Proxy.runWith(messages, () -> {
            try {
                Optional<StoredLogin> login = OAuthLogins.login(spec, host);
                out.println(login.map(l -> "signed in to " + l.server() + describe(l))
                        .orElse(spec.endpoint() + " takes requests without signing in; nothing to keep"));
            } catch (IOException e) {
                err.println("stretto: login: " + e.getMessage());
                status.set(Stretto.EXIT_BAD_INPUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status.set(Stretto.EXIT_BAD_INPUT);
            }
        });
        StderrMessages.flush(Duration.ofSeconds(1));
        return status.get();
    }

    private static String describe(StoredLogin l) {
        List<String> parts = new ArrayList<>();
        if (l.tokens() != null) {
            if (!l.tokens().scopes().isEmpty()) {
                parts.add("scopes " + String.join(" ", l.tokens().scopes()));
            }
            if (l.tokens().expiresAt() != null) {
                parts.add("the token expires " + l.tokens().expiresAt());
            }
            parts.add(l.tokens().refreshToken() != null ? "refreshed by the proxy" : "no refresh token");
        }
        return parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")";
    }
}
