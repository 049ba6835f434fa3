package dev.stretto.cli.tools;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import dev.stretto.proxy.UpstreamSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code stretto logout URL|--all}: forgets the logins kept in {@code ~/.stretto/auth}. */
final class LogoutCli {

    static final String COMMAND = "logout";

    static final String HELP = """
            Usage: stretto logout URL
                   stretto logout --all

            Forgets the sign-in kept for the MCP server at URL (its tokens and its client
            registration) in ~/.stretto/auth, or every sign-in kept with --all. A proxy
            running for that server keeps the tokens it has until it ends.

            Exit status: 0 when something was forgotten, 1 when nothing was kept for URL,
            2 for a usage error.
            """;

    private LogoutCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--all", "--help", "-h"), Set.of());
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        boolean all = a.has("--all");
        if (all == !a.operands().isEmpty() || a.operands().size() > 1) {
            throw new UsageException(COMMAND, "give one URL, or --all");
        }
        TokenStore store = AuthListCli.store(COMMAND, HostEnvironment.of(env, -1));
        if (all) {
            List<StoredLogin> logins = OAuthLogins.list(store);
            for (StoredLogin l : logins) {
                OAuthLogins.logout(l.server(), store);
                out.println("forgot the sign-in to " + l.server());
            }
            if (logins.isEmpty()) {
                out.println("no sign-ins are kept");
            }
            return Stretto.EXIT_OK;
        }
        URI server;
        try {
            server = UpstreamSpec.Http.parseEndpoint(a.operands().getFirst());
        } catch (IllegalArgumentException e) {
            throw new UsageException(COMMAND, e.getMessage());
        }
        if (OAuthLogins.logout(server, store)) {
            out.println("forgot the sign-in to " + TokenStore.keyOf(server));
            return Stretto.EXIT_OK;
        }
        err.println("stretto: logout: no sign-in is kept for " + TokenStore.keyOf(server));
        return Stretto.EXIT_BAD_INPUT;
    }
}
