package dev.stretto.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything an {@link McpListener} needs: where it listens, how each HTTP session is
 * configured, who may connect, and its limits. Use {@link #builder(InetSocketAddress,
 * SessionConfigurer)}.
 *
 * @param address  the address and port to bind ({@code 127.0.0.1} unless another address is
 *                 meant: hosts on other machines can connect then); port 0 takes a free one
 * @param path     the MCP endpoint's path, {@code /mcp} by default
 * @param sessions makes each session's {@link ProxyConfig}
 * @param token    the bearer token every request must carry ({@code Authorization: Bearer
 *                 <token>}), or null for none; never shown by {@link #toString()}
 * @param idle     a session no request has used for this long is ended; {@link Duration#ZERO}
 *                 keeps idle sessions until the listener stops
 * @param origins  the origins that may connect besides loopback ones, each {@code
 *                 scheme://host[:port]} in lower case (browsers' {@code Origin} header)
 * @param limits   how much the listener takes on
 * @param events   what watches sessions come and go, or null
 * @param clock    the wall clock that names sessions
 * @param messages where the listener's own messages go (each session's go to its own
 *                 configuration's handler)
 */
public record ListenConfig(InetSocketAddress address, String path, SessionConfigurer sessions, String token,
                           Duration idle, List<String> origins, Limits limits, ListenEvents events,
                           InstantSource clock, ProxyMessages messages) {

    /** How long an idle session is kept by default: 240 minutes. */
    public static final Duration DEFAULT_IDLE = Duration.ofMinutes(240);

    /**
     * How much a listener takes on; past each limit a request is refused with a status and a
     * JSON-RPC error that says which limit it met.
     *
     * @param maxSessions  sessions at once (503 past it)
     * @param maxStreams   open responses per session at once, event streams and requests
     *                     waiting for their JSON answer together (429 past it)
     * @param maxBodyBytes the largest POST body (413 past it)
     * @param replayEvents the events a session keeps for a client that resumes a stream ({@code
     *                     Last-Event-ID}), the oldest dropped first
     * @param replayBytes  the bytes of those events at most
     */
    public record Limits(int maxSessions, int maxStreams, long maxBodyBytes, int replayEvents, long replayBytes) {

        /** 256 sessions, 1,024 streams each, 16 MiB bodies, 1,024 events or 16 MiB kept per session. */
        public static final Limits DEFAULT = new Limits(256, 1024, 16L << 20, 1024, 16L << 20);

        /**
         * Checks the limits.
         *
         * @throws IllegalArgumentException when a limit is not positive
         */
        public Limits {
            if (maxSessions < 1 || maxStreams < 1 || maxBodyBytes < 1 || replayEvents < 1 || replayBytes < 1) {
                throw new IllegalArgumentException("every listener limit must be positive");
            }
        }

        /**
         * These limits with another number of sessions.
         *
         * @param maxSessions sessions at once
         * @return the limits
         */
        public Limits withMaxSessions(int maxSessions) {
            return new Limits(maxSessions, maxStreams, maxBodyBytes, replayEvents, replayBytes);
        }
    }

    /**
     * Checks the configuration.
     *
     * @throws IllegalArgumentException when the path does not start with {@code /}, the token
     *                                  is empty or holds white space or control characters,
     *                                  the idle time is negative, or an origin is not {@code
     *                                  scheme://host[:port]}
     */
    public ListenConfig {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(messages, "messages");
        if (!path.startsWith("/") || path.chars().anyMatch(c -> c <= ' ' || c >= 0x7f || c == '?' || c == '#')) {
            throw new IllegalArgumentException("the endpoint's path must start with / and hold no spaces, ? or #: "
                    + path);
        }
        if (token != null) {
            checkToken(token);
        }
        if (idle.isNegative()) {
            throw new IllegalArgumentException("the idle time must not be negative");
        }
        List<String> normalized = new ArrayList<>();
        for (String origin : origins) {
            normalized.add(origin(origin));
        }
        origins = List.copyOf(normalized);
    }

    /**
     * A builder for a listener on {@code address} whose sessions {@code sessions} configures;
     * everything else starts at its default.
     *
     * @param address  the address and port to bind
     * @param sessions makes each session's configuration
     * @return the builder
     */
    public static Builder builder(InetSocketAddress address, SessionConfigurer sessions) {
        return new Builder(address, sessions);
    }

    /**
     * An origin as browsers send it, in lower case: {@code scheme://host[:port]}.
     *
     * @param origin the origin as given
     * @return it, normalised
     * @throws IllegalArgumentException when it is not an http(s) origin
     */
    public static String origin(String origin) {
        Objects.requireNonNull(origin, "origin");
        URI uri;
        try {
            uri = new URI(origin.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + origin + "' is not an origin (scheme://host[:port])");
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme) || uri.getHost() == null || uri.getRawUserInfo() != null
                || !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + origin + "' is not an origin (http or https://host[:port],"
                    + " nothing after it)");
        }
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    }

    private static void checkToken(String token) {
        if (token.isEmpty()) {
            throw new IllegalArgumentException("the listener's token is empty");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                throw new IllegalArgumentException("the listener's token holds white space or a control character");
            }
        }
    }

    /** The configuration without the token's value. */
    @Override
    public String toString() {
        return "ListenConfig[address=" + address + ", path=" + path + ", token=" + (token == null ? "none" : "<set>")
                + ", idle=" + idle + ", origins=" + origins + ", limits=" + limits + "]";
    }

    /** Builds a {@link ListenConfig}. Not thread-safe. */
    public static final class Builder {
        private final InetSocketAddress address;
        private final SessionConfigurer sessions;
        private String path = "/mcp";
        private String token;
        private Duration idle = DEFAULT_IDLE;
        private final List<String> origins = new ArrayList<>();
        private Limits limits = Limits.DEFAULT;
        private ListenEvents events;
        private InstantSource clock = InstantSource.system();
        private ProxyMessages messages;

        private Builder(InetSocketAddress address, SessionConfigurer sessions) {
            this.address = Objects.requireNonNull(address, "address");
            this.sessions = Objects.requireNonNull(sessions, "sessions");
        }

        /**
         * The endpoint's path; {@code /mcp} by default.
         *
         * @param path the path, starting with {@code /}
         * @return this builder
         */
        public Builder path(String path) {
            this.path = path;
            return this;
        }

        /**
         * Requires {@code Authorization: Bearer <token>} on every request ({@code
         * --listen-token-file}); a request without it, or with another token, gets 401.
         *
         * @param token the token, or null for none
         * @return this builder
         */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /**
         * Ends a session no request has used for {@code idle} ({@code --listen-idle}); 240
         * minutes by default.
         *
         * @param idle the idle time, or {@link Duration#ZERO} to keep idle sessions
         * @return this builder
         */
        public Builder idle(Duration idle) {
            this.idle = idle;
            return this;
        }

        /**
         * Lets pages of {@code origin} connect too ({@code --listen-origin}); pages of loopback
         * origins ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}) always may, and clients
         * that send no {@code Origin} (every one but a browser) are not asked.
         *
         * @param origin {@code scheme://host[:port]}
         * @return this builder
         */
        public Builder allowOrigin(String origin) {
            this.origins.add(Objects.requireNonNull(origin, "origin"));
            return this;
        }

        /**
         * The listener's limits; {@link Limits#DEFAULT} by default.
         *
         * @param limits the limits
         * @return this builder
         */
        public Builder limits(Limits limits) {
            this.limits = limits;
            return this;
        }

        /**
         * What watches sessions come and go (replaces what was given before).
         *
         * @param events the watcher, or null for none
         * @return this builder
         */
        public Builder events(ListenEvents events) {
            this.events = events;
            return this;
        }

        /**
         * The wall clock that names sessions; the system's by default.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Where the listener's own messages go; stderr at {@link ProxyMessages.Level#INFO} by default.
         *
         * @param messages the handler, or null for the default
         * @return this builder
         */
        public Builder messages(ProxyMessages messages) {
            this.messages = messages;
            return this;
        }

        /**
         * The configuration.
         *
         * @return the configuration
         * @throws IllegalArgumentException as the {@link ListenConfig} constructor does
         */
        public ListenConfig build() {
            return new ListenConfig(address, path, sessions, token, idle, origins, limits, events, clock,
                    messages != null ? messages : StderrMessages.at(ProxyMessages.Level.INFO));
        }
    }
}
