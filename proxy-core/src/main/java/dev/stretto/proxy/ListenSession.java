package dev.stretto.proxy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * One HTTP session of an {@link McpListener}: made when a host POSTs {@code initialize}
 * without a session id, given to the {@link SessionConfigurer} that makes its {@link
 * ProxyConfig}, and reported to the {@link ListenEvents}.
 *
 * @param name         the session's name, which also names its log: {@code <UTC start>-<pid>-<n>}
 *                     ({@code 20260923T212000.123Z-4242-7}), {@code n} counting the listener's
 *                     sessions from 1
 * @param mcpSessionId the {@code Mcp-Session-Id} the host got with the {@code initialize}
 *                     answer: 32 hex digits from a cryptographically strong random source
 * @param hostSession  the {@code Stretto-Session} header the host sent with {@code initialize}
 *                     (letters, digits, {@code .}, {@code _} and {@code -}, at most 128), or
 *                     null when it sent none
 * @param started      when the host's {@code initialize} arrived, by the listener's clock
 */
public record ListenSession(String name, String mcpSessionId, String hostSession, Instant started) {

    /** What {@link #expand(Path)} replaces. */
    public static final String PLACEHOLDER = "{session}";

    /**
     * Checks that every component that must be there is.
     *
     * @throws NullPointerException when the name, the session id or the start is null
     */
    public ListenSession {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mcpSessionId, "mcpSessionId");
        Objects.requireNonNull(started, "started");
    }

    /**
     * What stands for this session in paths: the host's session when it named one, else the
     * MCP session id.
     *
     * @return {@link #hostSession()}, or {@link #mcpSessionId()} when that is null
     */
    public String key() {
        return hostSession != null ? hostSession : mcpSessionId;
    }

    /**
     * {@code path} with every {@value #PLACEHOLDER} replaced by {@link #key()}, as {@code
     * stretto-proxy --listen} does with {@code --context}, {@code --flow-log} and {@code
     * --confirm-log}: each HTTP session gets files of its own.
     *
     * @param path a path that may hold the placeholder, or null
     * @return the path for this session (the same path when it holds none), or null for null
     */
    public Path expand(Path path) {
        if (path == null) {
            return null;
        }
        String text = path.toString();
        return text.contains(PLACEHOLDER) ? Path.of(text.replace(PLACEHOLDER, key())) : path;
    }
}
