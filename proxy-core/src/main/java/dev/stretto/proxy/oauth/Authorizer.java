package dev.stretto.proxy.oauth;

import dev.stretto.proxy.BrowserOpener;
import dev.stretto.proxy.OAuthSettings;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The OAuth side of one HTTP upstream ({@link UpstreamAuth}): the login in use, its tokens
 * refreshed before they expire, and the sign-in a refusal starts.
 *
 * <p>One thing at a time: a refresh or a sign-in runs under {@link #lock}, so the host's
 * parallel requests that are refused together start one sign-in, and wait for it; each then
 * sends again with the new token (a request sent with an older token than the current one is
 * sent again at once). Refreshes also run inside {@link TokenStore#exclusive}, where the kept
 * login is read again first: tokens another proxy refreshed meanwhile are used instead of
 * refreshing with a refresh token the server may have rotated away. Every new token and secret
 * goes to {@code secrets} at once, so that logs and messages can keep them out.
 */
public final class Authorizer implements UpstreamAuth {

    /** At most how long before its expiry a token is refreshed. */
    static final Duration REFRESH_MARGIN = Duration.ofSeconds(60);

    private final URI key;
    private final String where;
    private final OAuthSettings settings;
    private final TokenStore store;
    private final OAuthHttp http;
    private final InstantSource clock;
    private final Consumer<String> secrets;
    private final SignIn signIn;
    private final ReentrantLock lock = new ReentrantLock();

    // Guarded by lock for writes; read without it.
    private volatile StoredLogin login;
    private volatile boolean loaded;
    // Guarded by lock.
    private ServerMetadata server;
    // Guarded by lock: the scope sets a step-up was made for with nothing new to ask for.
    private final Set<Set<String>> repeatedStepUps = new HashSet<>();

    /**
     * @param endpoint the MCP endpoint
     * @param where    the endpoint's log form, as messages name it
     * @param client   the client for the authorization server's requests (not the MCP server's)
     * @param timeout  the bound on each of those requests
     * @param secrets  told every token and secret the sign-in brings
     */
    public Authorizer(URI endpoint, String where, OAuthSettings settings, TokenStore store, HttpClient client,
                      Duration timeout, InstantSource clock, Consumer<String> secrets) {
        this.key = TokenStore.keyOf(endpoint);
        this.where = where;
        this.settings = settings;
        this.store = store;
        this.http = new OAuthHttp(client, timeout);
        this.clock = clock;
        this.secrets = secrets;
        BrowserOpener browser = settings.browser() != null ? settings.browser() : CommandOpener.system();
        this.signIn = new SignIn(key, where, settings, browser, http, clock);
        if (settings.clientSecret() != null) {
            secrets.accept(settings.clientSecret());
        }
    }

    /** The login in use, loaded from the store the first time. */
    public Optional<StoredLogin> login() {
        load();
        return Optional.ofNullable(login);
    }

    @Override
    public String authorization() throws IOException, InterruptedException {
        load();
        StoredLogin l = login;
        if (l == null || l.tokens() == null) {
            return null;
        }
        if (expiring(l.tokens()) && l.tokens().refreshToken() != null) {
            lock.lockInterruptibly();
            try {
                StoredLogin now = login;
                if (now != null && now.tokens() != null && expiring(now.tokens())) {
                    try {
                        refresh();
                    } catch (IOException e) {
                        // The request goes with what there is; a refusal will say the rest.
                        Logger.warn("could not refresh the tokens for {} before they expire: {}", where,
                                e.getMessage());
                    }
                }
            } finally {
                lock.unlock();
            }
            l = login;
        }
        return l == null || l.tokens() == null ? null : "Bearer " + l.tokens().accessToken();
    }

    @Override
    public boolean wants(int status, List<String> challenges) {
        return status == 401 || status == 403 && Challenge.of(challenges).insufficientScope();
    }

    @Override
    public boolean refused(int status, List<String> challenges, String sent, boolean interactive)
            throws IOException, InterruptedException {
        Challenge challenge = Challenge.of(challenges);
        lock.lockInterruptibly();
        try {
            if (changedSince(sent)) {
                return true;
            }
            if (status == 403) {
                return interactive && stepUp(challenge);
            }
            // Another proxy (or stretto login) may have signed in or refreshed meanwhile.
            if (adoptStored(sent)) {
                return true;
            }
            StoredLogin l = login;
            if (sent != null && l != null && l.tokens() != null && l.tokens().refreshToken() != null && refresh()) {
                return true;
            }
            if (!interactive) {
                return false;
            }
            run(challenge, List.of());
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Signs in now, whatever is kept ({@code stretto login}).
     *
     * @param challenge the server's challenge
     */
    public StoredLogin signInNow(List<String> challenges) throws IOException, InterruptedException {
        lock.lockInterruptibly();
        try {
            load();
            run(Challenge.of(challenges), List.of());
            return login;
        } finally {
            lock.unlock();
        }
    }

    /** A 403 for lack of scope: sign in again asking for the scopes granted and those the server wants. */
    private boolean stepUp(Challenge challenge) throws IOException, InterruptedException {
        StoredLogin l = login;
        Set<String> wanted = new HashSet<>(challenge.scopes());
        if (l != null && l.tokens() != null && l.tokens().scopes().containsAll(wanted)) {
            // Nothing new to ask for: one more sign-in (the grant may have been narrower than it
            // said), then no more, so that a server that never accepts does not loop.
            if (!repeatedStepUps.add(Set.copyOf(wanted))) {
                throw new AuthorizationFailedException("the server still refuses the token for lack of scope ("
                        + String.join(" ", challenge.scopes()) + ") after signing in again with it; giving up");
            }
        }
        Logger.info("{} asks for more scope ({}); signing in again", where, String.join(" ", challenge.scopes()));
        run(challenge, challenge.scopes().isEmpty() ? List.of() : challenge.scopes());
        return true;
    }

    private void run(Challenge challenge, List<String> stepUp) throws IOException, InterruptedException {
        SignIn.Result result = signIn.run(challenge, login, stepUp);
        server = result.server();
        keep(result.login());
        store.exclusive(key, () -> {
            store.save(result.login());
            return null;
        });
    }

    /**
     * Refreshes the tokens, inside the store's lock; true when there are good tokens after it.
     * A refresh token the server refuses is dropped (from the store too): the next refusal
     * signs in anew.
     */
    private boolean refresh() throws IOException, InterruptedException {
        return store.exclusive(key, () -> {
            StoredLogin stored = store.load(key).orElse(null);
            StoredLogin mine = login;
            if (stored != null && stored.tokens() != null && (mine == null || mine.tokens() == null
                    || !stored.tokens().accessToken().equals(mine.tokens().accessToken()))
                    && !expiring(stored.tokens())) {
                keep(stored);
                Logger.debug("using the tokens for {} that another session refreshed", where);
                return true;
            }
            StoredLogin base = stored != null && stored.tokens() != null ? stored : mine;
            if (base == null || base.tokens() == null || base.tokens().refreshToken() == null || base.client() == null) {
                return false;
            }
            ServerMetadata s = serverFor(base);
            try {
                StoredLogin.Tokens tokens = new TokenEndpoint(http, s, base.client(), settings.clientKey(), clock)
                        .refresh(base.tokens(), base.resource());
                StoredLogin updated = base.withTokens(tokens);
                keep(updated);
                store.save(updated);
                Logger.debug("refreshed the tokens for {}", where);
                return true;
            } catch (TokenEndpoint.Refused e) {
                Logger.warn("the authorization server no longer takes the refresh token for {} ({}); signing in"
                        + " again", where, e.getMessage());
                StoredLogin dropped = base.withTokens(null);
                keep(dropped);
                store.save(dropped);
                return false;
            }
        });
    }

    /** Uses tokens the store has that differ from those sent; true when it did. */
    private boolean adoptStored(String sent) throws IOException, InterruptedException {
        Optional<StoredLogin> stored = store.load(key);
        if (stored.isEmpty() || stored.get().tokens() == null) {
            return false;
        }
        String header = "Bearer " + stored.get().tokens().accessToken();
        if (header.equals(sent) || expiring(stored.get().tokens()) && stored.get().tokens().refreshToken() == null) {
            return false;
        }
        keep(stored.get());
        return true;
    }

    private ServerMetadata serverFor(StoredLogin l) throws IOException, InterruptedException {
        ServerMetadata s = server;
        if (s != null && l.issuer().equals(s.issuer() != null ? s.issuer() : "")) {
            return s;
        }
        ServerMetadata found = ServerMetadata.discover(http, URI.create(l.issuer()));
        if (found == null && l.resource() == null) {
            // A 2025-03-26 server's metadata is at its own origin, whatever issuer it names.
            found = ServerMetadata.discover(http, key.resolve("/"));
        }
        s = found != null ? found : ServerMetadata.fallback(key);
        server = s;
        return s;
    }

    private boolean changedSince(String sent) {
        StoredLogin l = login;
        if (l == null || l.tokens() == null) {
            return false;
        }
        return !("Bearer " + l.tokens().accessToken()).equals(sent) && !expiring(l.tokens());
    }

    private void keep(StoredLogin l) {
        if (l.tokens() != null) {
            secrets.accept(l.tokens().accessToken());
            if (l.tokens().refreshToken() != null) {
                secrets.accept(l.tokens().refreshToken());
            }
        }
        if (l.client() != null && l.client().secret() != null) {
            secrets.accept(l.client().secret());
        }
        login = l;
    }

    private void load() {
        if (loaded) {
            return;
        }
        lock.lock();
        try {
            if (loaded) {
                return;
            }
            try {
                store.load(key).ifPresent(this::keep);
            } catch (IOException e) {
                Logger.warn("{}; signing in anew", e.getMessage());
            }
            loaded = true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the token expires within the margin: a minute, or half its life when that is shorter. */
    private boolean expiring(StoredLogin.Tokens t) {
        if (t.expiresAt() == null) {
            return false;
        }
        Duration life = Duration.between(t.obtained(), t.expiresAt());
        Duration margin = life.dividedBy(2).compareTo(REFRESH_MARGIN) < 0 ? life.dividedBy(2) : REFRESH_MARGIN;
        Instant now = clock.instant();
        return !now.plus(margin).isBefore(t.expiresAt());
    }
}
