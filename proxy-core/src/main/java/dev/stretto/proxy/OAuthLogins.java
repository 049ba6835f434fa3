package dev.stretto.proxy;

import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.oauth.Authorizer;
import dev.stretto.proxy.oauth.CommandOpener;
import dev.stretto.proxy.oauth.DirectoryTokenStore;
import dev.stretto.proxy.oauth.MemoryTokenStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Signing in to OAuth servers outside a session, and the logins kept: what {@code stretto
 * login URL}, {@code stretto logout URL} and {@code stretto auth list} do, for a program too;
 * and the proxy's own {@link TokenStore}s and {@link BrowserOpener}s for {@link OAuthSettings}.
 */
public final class OAuthLogins {

    /** Where the proxy's commands keep logins, under the home directory. */
    public static final String DIRECTORY = ".stretto/auth";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private OAuthLogins() {
    }

    /**
     * The proxy's own kind of store: one JSON file per server in {@code directory} (created for
     * its owner only, files readable by their owner only), written atomically, with a lock file
     * per server that excludes other processes as well as other threads.
     *
     * @param directory the directory, {@code ~/.stretto/auth} for the proxy's commands
     * @return the store
     */
    public static TokenStore directoryStore(Path directory) {
        return new DirectoryTokenStore(directory);
    }

    /**
     * A store in this JVM's memory, empty at first and gone with it.
     *
     * @return the store
     */
    public static TokenStore memoryStore() {
        return new MemoryTokenStore();
    }

    /**
     * An opener that shows the authorization URL by running {@code command} with the URL as its
     * last argument: without a shell, its output discarded (never on the proxy's stdout), not
     * waited for ({@code --oauth-browser CMD}).
     *
     * @param command the program and its first arguments; not empty
     * @return the opener
     * @throws IllegalArgumentException when the command is empty
     */
    public static BrowserOpener browserCommand(List<String> command) {
        return new CommandOpener(command);
    }

    /**
     * An opener that runs the command {@code commandLine} names, split at white space (as a user
     * writes one in an option or a variable; no quoting), as {@link #browserCommand(List)} does.
     *
     * @param commandLine the program and its first arguments
     * @return the opener
     * @throws IllegalArgumentException when the command line is blank
     */
    public static BrowserOpener browserCommandLine(String commandLine) {
        return new CommandOpener(CommandOpener.words(commandLine));
    }

    /**
     * The proxy's own store for {@code host}: {@code ~/.stretto/auth}.
     *
     * @param host the surroundings, for the home directory
     * @return the store
     * @throws IllegalArgumentException when no home directory is known
     */
    public static TokenStore defaultStore(HostEnvironment host) {
        if (host.home() == null) {
            throw new IllegalArgumentException("the home directory is not known (HOME is not set), so there is no"
                    + " ~/" + DIRECTORY);
        }
        return directoryStore(host.home().resolve(DIRECTORY));
    }

    /**
     * The store a session with {@code settings} uses: theirs, else {@link #defaultStore}, else
     * (no home known) one in memory.
     *
     * @param settings the OAuth settings
     * @param host     the session's surroundings
     * @return the store
     */
    public static TokenStore storeFor(OAuthSettings settings, HostEnvironment host) {
        if (settings.store() != null) {
            return settings.store();
        }
        if (host.home() == null) {
            return memoryStore();
        }
        return defaultStore(host);
    }

    /**
     * Signs in to the server of {@code spec} now, as a session would at its first 401, and keeps
     * the login; the authorization URL is said in the messages of the calling thread (see {@link
     * Proxy#runWith}) and shown with the settings' browser opener.
     *
     * @param spec the server and how to sign in
     * @param host the surroundings, for the default store
     * @return the login kept, or empty when the server takes requests without signing in
     * @throws IOException          when the server cannot be reached, answers an unexpected
     *                              status, or the sign-in fails (the message says why, never
     *                              showing a token)
     * @throws InterruptedException when interrupted
     */
    public static Optional<StoredLogin> login(UpstreamSpec.Http spec, HostEnvironment host)
            throws IOException, InterruptedException {
        OAuthSettings settings = spec.oauth().enabled() ? spec.oauth() : spec.oauth().withEnabled(true);
        TokenStore store = storeFor(settings, host);
        String where = HttpUpstream.logForm(spec.endpoint());
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1).executor(executor).build();
        try {
            HttpRequest.Builder probe = HttpRequest.newBuilder(TokenStore.keyOf(spec.endpoint()))
                    .timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":"
                            + "{\"name\":\"stretto-login\",\"version\":\"1\"}}}"));
            for (HeaderSpec h : spec.headers()) {
                probe.header(h.name(), h.value());
            }
            HttpResponse<InputStream> answer = client.send(probe.build(), HttpResponse.BodyHandlers.ofInputStream());
            answer.body().close();
            int status = answer.statusCode();
            if (status >= 200 && status <= 299) {
                answer.headers().firstValue("Mcp-Session-Id").ifPresent(id -> endSession(client, spec, id));
                return Optional.empty();
            }
            if (status != 401 && status != 403) {
                throw new IOException("the server at " + where + " answered HTTP " + status + " to an initialize request,"
                        + " not 401 (sign in) or a success");
            }
            Authorizer authorizer = new Authorizer(spec.endpoint(), where, settings, store, client, TIMEOUT,
                    InstantSource.system(), secret -> { });
            return Optional.of(authorizer.signInNow(answer.headers().allValues("WWW-Authenticate")));
        } finally {
            client.shutdownNow();
            executor.shutdownNow();
        }
    }

    /**
     * Forgets the login kept for {@code server}.
     *
     * @param server the MCP endpoint
     * @param store  the store
     * @return true when one was kept
     * @throws IOException when the store cannot be changed
     */
    public static boolean logout(URI server, TokenStore store) throws IOException {
        return store.forget(server);
    }

    /**
     * The logins kept in {@code store}.
     *
     * @param store the store
     * @return the logins, in the order of their servers
     * @throws IOException when the store cannot be read
     */
    public static List<StoredLogin> list(TokenStore store) throws IOException {
        return store.list();
    }

    /**
     * The directory of the proxy's own store for {@code host}.
     *
     * @param host the surroundings
     * @return {@code ~/.stretto/auth}, or empty when no home is known
     */
    public static Optional<Path> defaultDirectory(HostEnvironment host) {
        return host.home() == null ? Optional.empty() : Optional.of(host.home().resolve(DIRECTORY));
    }

    private static void endSession(HttpClient client, UpstreamSpec.Http spec, String id) {
        try {
            HttpRequest.Builder delete = HttpRequest.newBuilder(TokenStore.keyOf(spec.endpoint())).DELETE()
                    .timeout(TIMEOUT).header("Mcp-Session-Id", id);
            spec.headers().forEach(h -> delete.header(h.name(), h.value()));
            client.send(delete.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | IllegalArgumentException e) {
            Logger.debug("could not end the probe's session: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
