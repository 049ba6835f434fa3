package dev.stretto.cli.tools;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stretto auth list}: the sign-ins kept in {@code ~/.stretto/auth}, one per line: the
 * server, the scopes, when the access token expires and whether a refresh token is kept; never
 * a token or secret.
 */
final class AuthListCli {

    static final String COMMAND = "auth";

    static final String HELP = """
            Usage: stretto auth list

            Lists the sign-ins to OAuth servers kept in ~/.stretto/auth (by stretto-proxy
            --upstream and stretto login): the server, the scopes granted, when the access
            token expires (the proxy refreshes it before, where it has a refresh token), and
            the client id. No token or secret is shown.

            Exit status: 0, also when none is kept; 2 for a usage error.
            """;

    private AuthListCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--help", "-h"), Set.of());
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        if (!a.operands().equals(List.of("list"))) {
            throw new UsageException(COMMAND, a.operands().isEmpty() ? "give the subcommand: list"
                    : "unknown subcommand " + a.operands().getFirst() + " (list)");
        }
        List<StoredLogin> logins = OAuthLogins.list(store(COMMAND, HostEnvironment.of(env, -1)));
        if (logins.isEmpty()) {
            out.println("no sign-ins are kept");
            return Stretto.EXIT_OK;
        }
        Instant now = Instant.now();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SERVER", "SCOPES", "EXPIRES", "REFRESH", "CLIENT"});
        for (StoredLogin l : logins) {
            StoredLogin.Tokens t = l.tokens();
            rows.add(new String[] {
                l.server().toString(),
                t == null || t.scopes().isEmpty() ? "-" : String.join(" ", t.scopes()),
                t == null ? "signed out" : expiry(t.expiresAt(), now),
                t == null ? "-" : t.refreshToken() != null ? "yes" : "no",
                l.client() == null ? "-" : l.client().id()});
        }
        TextTable.print(out, rows, new boolean[] {false, false, false, false, false});
        return Stretto.EXIT_OK;
    }

    static TokenStore store(String command, HostEnvironment host) throws UsageException {
        try {
            return OAuthLogins.defaultStore(host);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }

    private static String expiry(Instant at, Instant now) {
        if (at == null) {
            return "never said";
        }
        String when = at.truncatedTo(ChronoUnit.SECONDS).toString();
        return at.isAfter(now) ? when : when + " (expired)";
    }
}
