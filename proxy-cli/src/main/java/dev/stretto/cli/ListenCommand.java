package dev.stretto.cli;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.ListenConfig;
import dev.stretto.proxy.ListenEvents;
import dev.stretto.proxy.ListenSession;
import dev.stretto.proxy.ListenStartException;
import dev.stretto.proxy.McpListener;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.Subreaper;
import dev.stretto.proxy.Oracle;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code stretto-proxy --listen HOST:PORT}: the proxy as a Streamable HTTP server, each host
 * session a session of the other options of its own (its own server, log, actor). Prints the
 * endpoint's URL on stdout, then serves until SIGTERM or SIGINT, which end every session and
 * exit 0. Exit 125 when it cannot listen (the address in use, not this machine's) or read its
 * token file.
 */
final class ListenCommand {

    private ListenCommand() {
    }

    static int run(ProxyOptions options, ListenOptions listen, ProxyMessages messages, Map<String, String> env,
                   HostEnvironment host, PrintStream textOut, Subreaper subreaper, Runnable listening) {
        String token = null;
        if (listen.tokenFile() != null) {
            try {
                token = token(host.resolve(listen.tokenFile(), "token file", "file"), messages);
            } catch (IllegalArgumentException e) {
                messages.message(ProxyMessages.Level.ERROR, e.getMessage());
                return ProxyMain.PROXY_FAILED;
            }
        }
        ProxyMain.Setup setup;
        try {
            setup = ProxyMain.setup(options, messages, env, host);
        } catch (ProxyMain.SetupFailure e) {
            return e.status;
        }
        try (Oracle oracle = setup.oracle()) {
            InetSocketAddress address = new InetSocketAddress(listen.host(), listen.port());
            ListenConfig.Builder config = ListenConfig.builder(address, session -> ProxyMain.config(options, setup,
                            hostOf(host, session), subreaper, messages, session::expand))
                    .token(token)
                    .idle(listen.idle())
                    .limits(ListenConfig.Limits.DEFAULT.withMaxSessions(listen.maxSessions()))
                    .events(events(messages))
                    .messages(messages);
            listen.origins().forEach(config::allowOrigin);
            McpListener listener;
            try {
                listener = McpListener.start(config.build());
            } catch (ListenStartException e) {
                messages.message(ProxyMessages.Level.ERROR, e.getMessage());
                return ProxyMain.PROXY_FAILED;
            }
            textOut.println(listener.endpoint());
            textOut.flush();
            messages.message(ProxyMessages.Level.INFO, "listening on " + listener.endpoint() + ": each host session"
                    + " gets a server of its own" + (listen.idle().isZero() ? ""
                    : ", ended after " + minutes(listen.idle()) + " unused"));
            if (!address.getAddress().isLoopbackAddress() && token == null) {
                messages.message(ProxyMessages.Level.WARN, "listening on " + address.getAddress().getHostAddress()
                        + " without --listen-token-file: whoever can reach this port can use the server");
            }
            listening.run();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                // SIGTERM or SIGINT (SignalShutdown): every session ends, then the listener.
            }
            listener.stop();
            return 0;
        }
    }

    /** The host of a listener's session: the one it named ({@code Stretto-Session}), else the proxy's own. */
    private static HostEnvironment hostOf(HostEnvironment host, ListenSession session) {
        return new HostEnvironment(host.path(), host.home(),
                session.hostSession() != null ? session.hostSession() : host.strettoSession(), -1);
    }

    private static ListenEvents events(ProxyMessages messages) {
        return new ListenEvents() {
            @Override
            public void ended(ListenSession session, SessionResult result) {
                if (messages.enabled(ProxyMessages.Level.DEBUG)) {
                    messages.message(ProxyMessages.Level.DEBUG, "session " + session.name() + " ended ("
                            + result.endReason().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                            + ", exit status " + result.exitStatus() + ")");
                }
            }
        };
    }

    /**
     * The token in {@code file}: its text without the line end.
     *
     * @throws IllegalArgumentException saying why it cannot be used
     */
    private static String token(Path file, ProxyMessages messages) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw new IllegalArgumentException("the token file " + file + " is not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + ": "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        }
        String token = text.strip();
        if (token.isEmpty()) {
            throw new IllegalArgumentException("the token file " + file + " holds no token");
        }
        if (token.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new IllegalArgumentException("the token file " + file + " must hold the token alone, on one line,"
                    + " without spaces");
        }
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (permissions.contains(PosixFilePermission.GROUP_READ) || permissions.contains(PosixFilePermission.OTHERS_READ)) {
                messages.message(ProxyMessages.Level.WARN, "the token file " + file + " can be read by other users;"
                        + " make it yours alone (chmod 600)");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // Where the file system has no POSIX permissions, there is nothing to say.
        }
        return token;
    }

    private static String minutes(java.time.Duration d) {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toMillis() / 1000.0 + " s";
    }
}
