package dev.stretto.proxy;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

/**
 * Where the sign-ins to OAuth servers are kept ({@link StoredLogin}s, one per MCP endpoint),
 * between sessions and between proxies. The proxy's own is the directory {@code
 * ~/.stretto/auth/} ({@link OAuthLogins#directoryStore}); a harness may keep them elsewhere (a
 * keychain, a vault, memory: {@link OAuthLogins#memoryStore}) with an implementation of its own,
 * given in {@link OAuthSettings#withStore}.
 *
 * <p>Several sessions, in one JVM or in several processes, may use the same store for the same
 * server at once. A session that refreshes tokens does so inside {@link #exclusive}: it reads the
 * login again there, uses tokens another session refreshed meanwhile, and saves what it
 * refreshed before it lets go, so that a refresh token the server rotates is never used twice.
 * An implementation must make {@code exclusive} exclude every other user of the same store for
 * that server, and may be called from many threads at once.
 */
public interface TokenStore {

    /**
     * Work done while holding a server's lock.
     *
     * @param <T> what the work gives back
     */
    @FunctionalInterface
    interface Work<T> {

        /**
         * Does the work.
         *
         * @return its result
         * @throws IOException          when the store cannot be read or written
         * @throws InterruptedException when the thread is interrupted
         */
        T run() throws IOException, InterruptedException;
    }

    /**
     * The login kept for {@code server}.
     *
     * @param server the MCP endpoint
     * @return the login, or empty when none is kept
     * @throws IOException when the store cannot be read
     */
    Optional<StoredLogin> load(URI server) throws IOException;

    /**
     * Keeps {@code login} under its server, in place of what was kept.
     *
     * @param login the login
     * @throws IOException when the store cannot be written
     */
    void save(StoredLogin login) throws IOException;

    /**
     * Forgets what is kept for {@code server}.
     *
     * @param server the MCP endpoint
     * @return true when something was kept
     * @throws IOException when the store cannot be changed
     */
    boolean forget(URI server) throws IOException;

    /**
     * Every login kept, in the order of their servers.
     *
     * @return the logins
     * @throws IOException when the store cannot be read
     */
    List<StoredLogin> list() throws IOException;

    /**
     * Runs {@code work} while no other user of this store works on {@code server}'s login.
     *
     * @param server the MCP endpoint
     * @param work   what to do
     * @param <T>    what the work gives back
     * @return what the work gave back
     * @throws IOException          when the lock cannot be taken, or the work failed so
     * @throws InterruptedException when the thread is interrupted while it waits or works
     */
    <T> T exclusive(URI server, Work<T> work) throws IOException, InterruptedException;

    /**
     * The key a login for {@code endpoint} is kept under: the endpoint without user info and
     * fragment.
     *
     * @param endpoint the MCP endpoint
     * @return the key
     */
    static URI keyOf(URI endpoint) {
        if (endpoint.getRawUserInfo() == null && endpoint.getRawFragment() == null) {
            return endpoint;
        }
        try {
            return new URI(endpoint.getScheme(), null, endpoint.getHost(), endpoint.getPort(), endpoint.getPath(),
                    endpoint.getQuery(), null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the server URL cannot be made a key", e);
        }
    }
}
