package dev.stretto.proxy.listen;

import com.sun.net.httpserver.HttpServer;
import dev.stretto.proxy.ListenConfig;
import dev.stretto.proxy.ListenSession;
import dev.stretto.proxy.ListenStartException;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.scope.VirtualThreads;
import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A listener's HTTP server: binds the address, serves the endpoint on virtual threads (one per
 * exchange; an event stream holds its thread as long as it is open), ends sessions left idle,
 * and stops: no new session, every session stopped as a signal stops the stdio proxy (logs
 * written out, servers ended), then the server closed.
 */
public final class ListenServer {

    /** The JDK server's switch for TCP_NODELAY on its connections. */
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";
    /** The JDK server's limit of kept-alive connections, past which it closes one after its answer. */
    private static final String MAX_IDLE = "sun.net.httpserver.maxIdleConnections";
    /** The JDK server's seconds before it closes a kept-alive connection left idle. */
    private static final String IDLE_INTERVAL = "sun.net.httpserver.idleInterval";
    /**
     * Twice the JDK client's keep-alive (30 s) and far beyond Node's (4 s): a host drops a
     * pooled connection before this server might close it under the host's next request.
     */
    private static final String IDLE_SECONDS = "60";

    /** How long {@link #stop()} waits for the sessions to be over. */
    static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final ListenConfig config;
    private final HttpServer http;
    private final ExecutorService executor;
    private final SessionTable table;
    private final Thread sweeper;
    private boolean stopped;

    private ListenServer(ListenConfig config, HttpServer http, ExecutorService executor, SessionTable table) {
        this.config = config;
        this.http = http;
        this.executor = executor;
        this.table = table;
        this.sweeper = config.idle().isZero() ? null
                : Thread.ofVirtual().name("stretto-listen-idle").unstarted(Logger.carry(this::sweep));
    }

    /**
     * Binds {@code config}'s address and serves the endpoint; each session runs with {@code runner}.
     *
     * @throws ListenStartException when the address cannot be bound; the message says why
     */
    public static ListenServer start(ListenConfig config, SessionRunner runner) throws ListenStartException {
        InetSocketAddress address = config.address();
        if (address.isUnresolved()) {
            throw new ListenStartException("cannot listen on " + address.getHostString() + ":" + address.getPort()
                    + ": the host name does not resolve", null);
        }
        // Each answer is written in pieces (the headers at once, then each event as it comes):
        // with Nagle's algorithm on, a piece waits for the client's delayed ACK, 40 ms a round
        // trip. The JDK's server reads this once, when its first server is made.
        // Past its limit of idle connections (200 by default) the JDK's server closes a
        // connection right after its answer, and a host's next POST on it from its pool fails
        // (a POST is never sent twice): with hundreds of hosts, calls failed. None is closed for
        // being one too many; the idle interval still closes those no longer used.
        defaultProperty(NO_DELAY, "true");
        defaultProperty(MAX_IDLE, Integer.toString(Integer.MAX_VALUE));
        defaultProperty(IDLE_INTERVAL, IDLE_SECONDS);
        HttpServer http;
        try {
            http = HttpServer.create(address, 1024);
        } catch (IOException e) {
            throw new ListenStartException("cannot listen on " + shown(address) + ": " + reason(e), e);
        }
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                VirtualThreads.named("stretto-listen-http-"));
        http.setExecutor(executor);
        SessionTable table = new SessionTable(config.limits().maxSessions());
        Access access = new Access(address.getAddress(), config.origins(), config.token());
        http.createContext("/", new Endpoint(config, runner, table, access));
        ListenServer server = new ListenServer(config, http, executor, table);
        http.start();
        if (server.sweeper != null) {
            server.sweeper.start();
        }
        return server;
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    private static String reason(IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof BindException && message.contains("in use")) {
            return "the address is in use (another program listens on that port)";
        }
        if (message.contains("assign requested address")) {
            return "the address is not one of this machine's";
        }
        if (message.contains("permission denied")) {
            return "permission denied (ports below 1024 need privileges)";
        }
        return e instanceof SocketException ? e.getMessage() : e.toString();
    }

    /** The address as a URL's authority: {@code host:port}, an IPv6 address in brackets. */
    static String shown(InetSocketAddress address) {
        String host = address.getAddress() instanceof Inet6Address ? "[" + address.getAddress().getHostAddress() + "]"
                : address.getAddress().getHostAddress();
        return host + ":" + address.getPort();
    }

    /** The address bound, with the port taken when the configuration asked for port 0. */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    /** The endpoint's URL path. */
    public String path() {
        return config.path();
    }

    /** The sessions hosts may use now. */
    public List<ListenSession> sessions() {
        return table.usable().stream().map(s -> s.info).toList();
    }

    /**
     * Stops: no new request is served, every session is stopped and waited for (its log is
     * complete and its server gone when this returns, unless one takes longer than {@link
     * #STOP_WAIT}, which is said), then the HTTP server is closed. Does nothing the second time.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        table.stopping();
        if (sweeper != null) {
            sweeper.interrupt();
        }
        List<LiveSession> running = table.running();
        running.forEach(LiveSession::stop);
        boolean interrupted = false;
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        for (LiveSession s : running) {
            try {
                if (!s.awaitEnd(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                    Logger.warn("session {} did not stop within {} s", s.info.name(), STOP_WAIT.toSeconds());
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        // The responses still open end once they have written what their ended session left them.
        http.stop(1);
        executor.shutdownNow();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    // Ends the sessions no request has used for the idle time, looking four times as often.
    private void sweep() {
        Duration idle = config.idle();
        long tick = Math.max(10, Math.min(idle.toMillis() / 4, 30_000));
        try {
            while (true) {
                Thread.sleep(tick);
                for (LiveSession s : table.usable()) {
                    if (s.idleFor(idle) && table.remove(s.info.mcpSessionId()) != null) {
                        Logger.info("session {} was idle for {}; it is ended", s.info.name(), minutes(idle));
                        s.close();
                    }
                }
            }
        } catch (InterruptedException e) {
            // Stopped.
        }
    }

    private static String minutes(Duration d) {
        long seconds = d.toSeconds();
        return seconds % 60 == 0 ? seconds / 60 + " min" : d.toMillis() / 1000.0 + " s";
    }
}
