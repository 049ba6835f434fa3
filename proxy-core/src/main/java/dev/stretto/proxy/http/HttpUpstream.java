package dev.stretto.proxy.http;

import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.OAuthSettings;
import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.TokenStore;
import dev.stretto.proxy.oauth.Authorizer;
import dev.stretto.proxy.http.PendingRequests.Pending;
import dev.stretto.proxy.redact.Secrets;
import dev.stretto.proxy.redact.UrlRedactor;
import dev.stretto.proxy.scope.TaskForks;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.proxy.upstream.UpstreamStartException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import dev.stretto.proxy.logging.Logger;

/**
 * The server end of a session that is a Streamable HTTP endpoint ({@code --upstream URL}),
 * for the MCP revisions 2025-06-18 and 2025-11-25.
 *
 * <p>Each line from the host is POSTed to the endpoint in an exchange of its own, a fork of
 * the upstream's scope of exchanges, so the host's parallel calls are parallel upstream and
 * {@link #send} returns at once. The answer
 * comes back to the host as lines: nothing for a 202, the JSON body as one line, or each
 * event of an event stream as it arrives. The {@code Mcp-Session-Id} of the initialize answer
 * and the negotiated {@code MCP-Protocol-Version} go on every later request. Once the server
 * accepts {@code notifications/initialized}, the {@linkplain #companions() companion} listens
 * on the server's own GET stream. Every request of the host ends answered: by the server, or
 * by a JSON-RPC error line the proxy writes ({@code -32000}, naming the HTTP status or the
 * cause), so the host never waits forever; but one the host cancels ({@code
 * notifications/cancelled}) is finished at once, without an answer, as the transport wants. A
 * 404 on the session id ends the session for good: that request and every later one get an
 * error until the proxy is restarted.
 *
 * <p>Extra header values (bearer tokens) are sent on every request and never appear in a
 * warning, an error line, an exception message or {@link #toString()}.
 *
 * <p>A server that needs OAuth is signed in to as {@link OAuthSettings} say (see {@link
 * Authorizer}), unless the extra headers or the URL's user info give an {@code Authorization}
 * of their own; the tokens it brings are kept out of messages and, through {@code logSecrets},
 * out of the session log, as the header values are.
 *
 * <p>Threads and ownership: {@code start} runs on the session's thread, {@code send} and
 * {@code endOfInput} on the host's reader and the client pump, one after the other (in active
 * mode, the actor's server writer); each exchange in a fork of the upstream's scope of
 * exchanges ({@link TaskForks}), whose loop, like the DELETE that ends the session, runs on
 * the session's work executor (the one {@code start} gets: a scope nested in the session's);
 * the GET stream on the companion fork; {@code awaitEnd} on its fork. So every thread of the
 * upstream belongs to the session's scope and ends with it. The end of the session waits for
 * the exchanges through their scope, and gives up on them by cancelling it, which interrupts
 * those still open (when the drain timeout runs out, or the upstream is aborted). The JDK
 * client's own threads (its selector, the tasks it runs on its executor) are the client's,
 * ended by {@code shutdownNow} when the session ends. Shared state lives in thread-safe holders
 * ({@link SessionState}, {@link PendingRequests}); {@code gate} is written by the thread that
 * sends only.
 */
public final class HttpUpstream implements Upstream {

    /** Connect timeout, and the bound on answers that should come at once (202s, DELETE). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** How long {@link #awaitEnd} waits for answers still due after the host's input ended. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(60);

    /** How long {@link #stop} waits for the server to confirm the end of the session. */
    static final Duration STOP_DELETE_WAIT = Duration.ofSeconds(1);

    private final URI endpoint;
    private final List<HeaderSpec> headers;
    private final Duration timeout;
    private final Duration drainTimeout;
    private final Tuning tuning;
    private final Consumer<String> warn;
    private final Secrets secrets;
    private final OAuthSettings oauth;
    private final TokenStore tokenStore;
    private final Consumer<String> logSecrets;

    private final SessionState state = new SessionState();
    private final PendingRequests pending = new PendingRequests();
    // The exchanges, each a fork of this nested scope; its loop runs on the session's work.
    private final TaskForks exchanges = new TaskForks("stretto-http-exchange");
    private final CompletableFuture<Boolean> streamStart = new CompletableFuture<>();
    private final CompletableFuture<Void> inputEnded = new CompletableFuture<>();
    private final CompletableFuture<Void> abortSignal = new CompletableFuture<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicBoolean deleted = new AtomicBoolean();

    private volatile boolean aborted;
    private volatile boolean cancelled;
    // Set when the upstream was stopped or aborted with exchanges still open.
    private volatile boolean cutOff;
    // Set by start.
    private volatile Link link;
    private volatile Executor work;
    private volatile EventStream eventStream;
    // Client pump only: completes once the latest initialize has its answer (the session's headers)
    // and the latest notifications/initialized was delivered; later messages wait for it.
    private CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);

    /**
     * An upstream with the default timeouts ({@link #DEFAULT_TIMEOUT}, {@link
     * #DEFAULT_DRAIN_TIMEOUT}).
     *
     * @see #HttpUpstream(URI, List, Duration, Duration)
     */
    public HttpUpstream(URI endpoint, List<HeaderSpec> headers) {
        this(endpoint, headers, DEFAULT_TIMEOUT, DEFAULT_DRAIN_TIMEOUT);
    }

    /**
     * An upstream for one session with the server at {@code endpoint}. Nothing is sent until
     * the host's first line.
     *
     * @param endpoint     the MCP endpoint, http or https; user info in it is sent as Basic
     *                     authorization unless {@code headers} has an Authorization header
     * @param headers      extra headers sent on every request (values are secrets)
     * @param timeout      the connect timeout, and the bound on answers that should come at once:
     *                     a notification's or response's 202, the opening of the GET stream,
     *                     the final DELETE. A request's answer has no bound: a tool may run long,
     *                     and the host can cancel it.
     * @param drainTimeout how long {@link #awaitEnd} waits for the answers still due once the
     *                     host's input has ended; requests still open then are answered with an
     *                     error
     * @throws IllegalArgumentException when the URL is not an absolute http(s) URL with a host
     *                                  (the message shows only the URL's log form)
     */
    public HttpUpstream(URI endpoint, List<HeaderSpec> headers, Duration timeout, Duration drainTimeout) {
        this(endpoint, headers, timeout, drainTimeout, Tuning.DEFAULT, message -> Logger.warn((Object) message));
    }

    HttpUpstream(URI endpoint, List<HeaderSpec> headers, Duration timeout, Duration drainTimeout, Tuning tuning,
            Consumer<String> warn) {
        this(endpoint, headers, timeout, drainTimeout, tuning, warn, OAuthSettings.OFF, null, secret -> { });
    }

    /**
     * An upstream with the default timeouts that signs in to a server that needs OAuth.
     *
     * @param oauth      how to sign in ({@link OAuthSettings#OFF} for not at all)
     * @param store      where logins are kept (the settings' own store is not looked at)
     * @param logSecrets told each token and secret the sign-in brings, to keep it out of the log
     */
    public HttpUpstream(URI endpoint, List<HeaderSpec> headers, OAuthSettings oauth, TokenStore store,
                        Consumer<String> logSecrets) {
        this(endpoint, headers, DEFAULT_TIMEOUT, DEFAULT_DRAIN_TIMEOUT, Tuning.DEFAULT,
                message -> Logger.warn((Object) message), oauth, store, logSecrets);
    }

    HttpUpstream(URI endpoint, List<HeaderSpec> headers, Duration timeout, Duration drainTimeout, Tuning tuning,
            Consumer<String> warn, OAuthSettings oauth, TokenStore store, Consumer<String> logSecrets) {
        this.oauth = Objects.requireNonNull(oauth, "oauth");
        this.tokenStore = oauth.enabled() ? Objects.requireNonNull(store, "store") : store;
        this.logSecrets = Objects.requireNonNull(logSecrets, "logSecrets");
        this.endpoint = checked(endpoint);
        this.headers = List.copyOf(headers);
        this.timeout = positive(timeout, "timeout");
        this.drainTimeout = positive(drainTimeout, "drainTimeout");
        this.tuning = Objects.requireNonNull(tuning);
        this.warn = Objects.requireNonNull(warn);
        this.secrets = McpHttp.secrets(endpoint, this.headers);
    }

    /**
     * The URL as the session log's header records it ({@code server_command} is the one-element
     * list of it): without user info or fragment, with credential-looking query values replaced
     * by {@code <redacted>}. See {@link UrlRedactor}.
     */
    public static String logForm(URI endpoint) {
        return UrlRedactor.redact(endpoint);
    }

    /**
     * The secret values an upstream at {@code endpoint} with {@code headers} sends, in every
     * form a server may echo them, longest first: what the session log must not hold.
     */
    public static List<String> secretValues(URI endpoint, List<HeaderSpec> headers) {
        return McpHttp.secrets(endpoint, List.copyOf(headers)).values();
    }

    /**
     * Parses the text of {@code --upstream URL} into an endpoint this class accepts.
     *
     * @throws IllegalArgumentException when it is not an absolute http(s) URL with a host; the
     *                                  message never shows user info or query values
     */
    public static URI parseEndpoint(String text) {
        String url = text.strip();
        if (!url.contains("://")) {
            // "localhost:8080/mcp" would parse as the scheme "localhost".
            String shown = "";
            try {
                shown = " (write http://" + UrlRedactor.redact(new URI("http://" + url)).substring("http://".length())
                        + " or https://...)";
            } catch (java.net.URISyntaxException | RuntimeException e) {
                // Not even that would be a URL: nothing to suggest.
            }
            throw new IllegalArgumentException("the upstream URL has no scheme" + shown);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("the upstream URL is not a valid URL");
        }
        return checkEndpoint(uri);
    }

    /**
     * Checks that {@code endpoint} is one this class accepts: an absolute http(s) URL with a host.
     *
     * @return {@code endpoint}
     * @throws IllegalArgumentException when it is not; the message shows only the URL's log form
     */
    public static URI checkEndpoint(URI endpoint) {
        return checked(endpoint);
    }

    @Override
    public void start(ServerLineSink toHost, Executor work) throws IOException {
        Objects.requireNonNull(toHost, "toHost");
        this.work = Objects.requireNonNull(work, "work");
        if (link != null) {
            throw new IllegalStateException("the HTTP upstream was started already");
        }
        McpHttp http;
        try {
            // Once aborted, failures are the proxy's own doing, not the server's.
            Reachability reachability = new Reachability(logForm(endpoint), secrets, message -> {
                if (!aborted) {
                    warn.accept(message);
                }
            });
            http = new McpHttp(endpoint, headers, timeout, state, reachability);
            if (signsIn()) {
                http.authorizeWith(new Authorizer(endpoint, logForm(endpoint), oauth, tokenStore, http.client(), timeout,
                        InstantSource.system(), secret -> {
                            secrets.add(secret);
                            logSecrets.accept(secret);
                        }));
            }
        } catch (RuntimeException e) {
            throw new UpstreamStartException("cannot prepare the HTTP client for " + logForm(endpoint) + ": "
                    + Causes.describe(e, secrets), null);
        }
        ServerMessages messages = new ServerMessages(toHost, pending, state, warn, () -> aborted);
        Link.Lifecycle lifecycle = new Link.Lifecycle() {
            @Override
            public void sessionEnded() {
                endSession();
            }

            @Override
            public boolean aborted() {
                return aborted;
            }

            @Override
            public boolean cancelled() {
                return cancelled || aborted;
            }
        };
        Link l = new Link(http, messages, state, pending, tuning, secrets, warn, lifecycle);
        eventStream = new EventStream(l, streamStart, finished);
        link = l;
        work.execute(() -> {
            try {
                exchanges.call();
            } catch (InterruptedException e) {
                // The session is over: the scope has given up on the exchanges still open.
                Thread.currentThread().interrupt();
            }
        });
    }

    /** POSTs the line in an exchange of its own and returns at once. */
    @Override
    public void send(byte[] line, boolean newline) {
        Link l = started();
        if (inputEnded.isDone()) {
            throw new IllegalStateException("send after endOfInput");
        }
        JsonRpcPeek message = JsonRpcPeek.of(line);
        switch (message.kind()) {
            case BLANK -> Logger.debug("skipped a blank line from the host: there is nothing to POST");
            case NOT_JSON -> {
                warn.accept("the host sent a line that is not JSON; it was answered with a parse error");
                l.messages().answer(null, ErrorLines.PARSE_ERROR, "Parse error: the line is not JSON");
            }
            case NOT_OBJECT -> {
                warn.accept("the host sent a JSON value that is not one message object (a batch?);"
                        + " it was answered with an error");
                l.messages().answer(null, ErrorLines.INVALID_REQUEST,
                        "Invalid Request: send one JSON-RPC message object per line (batches are not supported)");
            }
            case REQUEST -> sendRequest(l, line, message);
            default -> {
                if (isCancellation(message)) {
                    finishCancelled(line);
                }
                PostExchange exchange = new PostExchange(l, line, message, null, gate, acceptedAction(message));
                if (isInitialized(message)) {
                    // Servers may refuse requests that arrive before notifications/initialized
                    // (the Python SDK's does), so later messages wait until it was delivered,
                    // as an SDK client waits for its 202; the wait is bounded by the timeout.
                    CompletableFuture<Void> delivered = new CompletableFuture<>();
                    gate = delivered;
                    launch(exchange, delivered);
                } else {
                    launch(exchange, null);
                }
            }
        }
    }

    private void sendRequest(Link l, byte[] line, JsonRpcPeek message) {
        if (message.id() == null) {
            // An id of a type JSON-RPC does not allow: nothing to answer by; let the server judge it.
            launch(new PostExchange(l, line, message, null, gate, () -> { }), null);
            return;
        }
        if (pending.contains(message.id())) {
            warn.accept("the host reused id " + message.id() + " while a request with it is still open;"
                    + " the first answer with that id will go to the host once");
        }
        Pending request = pending.add(message.id(), message.method());
        if (state.ended()) {
            l.messages().fail(request, Link.SESSION_ENDED);
            return;
        }
        CompletableFuture<Void> before = gate;
        if (request.isInitialize()) {
            // Later messages need the session id and version this initialize will bring.
            gate = request.answered();
        }
        launch(new PostExchange(l, line, message, request, before, () -> { }), null);
    }

    /**
     * The host gave up on a request (it cancelled it): the request is finished, as if answered.
     * The host wants no answer to it any more (the transport's rule: a cancelled request gets
     * none), so none is passed on; its stream gets {@link Tuning#answeredGrace()} to end before the
     * proxy closes it, and the end of the session does not wait for it.
     */
    private void finishCancelled(byte[] line) {
        Pending cancelled = pending.get(CancelledRequest.idOf(line));
        if (cancelled != null && pending.claim(cancelled)) {
            Logger.debug("the host cancelled request {} ({}); its answer is no longer waited for", cancelled.id(),
                    cancelled.method());
        }
    }

    private static boolean isCancellation(JsonRpcPeek message) {
        return message.kind() == JsonRpcPeek.Kind.NOTIFICATION && CancelledRequest.METHOD.equals(message.method());
    }

    private Runnable acceptedAction(JsonRpcPeek message) {
        if (isInitialized(message)) {
            return () -> streamStart.complete(true);
        }
        return () -> { };
    }

    private static boolean isInitialized(JsonRpcPeek message) {
        return message.kind() == JsonRpcPeek.Kind.NOTIFICATION && "notifications/initialized".equals(message.method());
    }

    /** @param done completed once the exchange is over, however it went; may be null */
    private void launch(PostExchange exchange, CompletableFuture<Void> done) {
        exchanges.execute(() -> {
            try {
                exchange.run();
            } catch (RuntimeException e) {
                if (!aborted) {
                    warn.accept("an exchange with the server failed: " + Causes.describe(e, secrets));
                }
            } finally {
                if (done != null) {
                    done.complete(null);
                }
            }
        });
    }

    @Override
    public void endOfInput() {
        inputEnded.complete(null);
    }

    /**
     * Waits for the host's input to end and for the answers still due (up to the drain
     * timeout), stops the GET stream, ends the session with DELETE (best effort, bounded by the
     * timeout; not after the server ended it), and returns 0.
     */
    @Override
    public int awaitEnd() throws InterruptedException {
        Link l = started();
        try {
            try {
                CompletableFuture.anyOf(inputEnded, abortSignal).get();
            } catch (ExecutionException notUsed) {
                // Neither completes exceptionally.
            }
            if (!aborted && !exchanges.awaitIdle(drainTimeout)) {
                int open = exchanges.open();
                warn.accept(open + " exchange(s) with the server were still open " + drainTimeout.toSeconds()
                        + " s after the host closed its input; giving up on them");
                cancelled = true;
                // Answered here, before the interrupts: the session's way to the host drops what an
                // interrupted thread hands it, so the exchanges could not say it themselves.
                for (Pending request : pending.snapshot()) {
                    l.messages().fail(request, Link.STOPPED_WAITING);
                }
                exchanges.cancel();
                exchanges.awaitIdle(timeout);
            }
            eventStream.stop();
            if (!aborted) {
                // The client bounds the request by the timeout; the extra bound covers a stalled connect.
                deleteSession(l, timeout.multipliedBy(2));
            }
            return 0;
        } catch (InterruptedException e) {
            abort();
            throw e;
        } finally {
            exchanges.cancel();
            eventStream.stop();
            l.http().shutdownNow();
            finished.countDown();
        }
    }

    /** Ends the server's session with DELETE, once, waiting at most {@code wait}; not after the server ended it. */
    private void deleteSession(Link l, Duration wait) throws InterruptedException {
        if (state.sessionId() == null || state.ended() || !deleted.compareAndSet(false, true)) {
            return;
        }
        Future<Integer> delete = CompletableFuture.supplyAsync(() -> {
            try {
                return l.http().delete();
            } catch (IOException e) {
                throw new IllegalStateException(Causes.describe(e, secrets));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }, work);
        try {
            int status = delete.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            if (status != 405 && status != 404 && (status < 200 || status > 299)) {
                warn.accept("the server answered HTTP " + status + " when asked to end the session");
            }
        } catch (ExecutionException e) {
            warn.accept("could not end the session on the server: " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            delete.cancel(true);
            warn.accept("the server did not confirm the end of the session in time");
        }
    }

    @Override
    public List<Callable<Void>> companions() {
        EventStream stream = eventStream;
        if (stream == null) {
            throw new IllegalStateException("companions() before start()");
        }
        return List.of(stream);
    }

    /**
     * Ends the session on the server with a DELETE, waited for {@link #STOP_DELETE_WAIT} at most,
     * then aborts everything else.
     */
    @Override
    public void stop() {
        Link l = link;
        if (l != null && !aborted) {
            try {
                deleteSession(l, STOP_DELETE_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        abort();
    }

    @Override
    public void abort() {
        if (exchanges.open() > 0) {
            cutOff = true;
        }
        aborted = true;
        abortSignal.complete(null);
        Link l = link;
        if (l == null) {
            return;
        }
        eventStream.stop();
        exchanges.cancel();
        l.http().shutdownNow();
        finished.countDown();
    }

    /**
     * {@link ServerEnd#CUT_OFF} once the proxy gave up on exchanges still open (the drain timeout
     * ran out, or the upstream was stopped or aborted while they were), else {@link ServerEnd#FINISHED}.
     */
    @Override
    public ServerEnd serverEnd() {
        return cancelled || cutOff ? ServerEnd.CUT_OFF : ServerEnd.FINISHED;
    }

    /** Shows the URL's log form and the extra headers' names, never their values. */
    @Override
    public String toString() {
        return "HttpUpstream[" + logForm(endpoint) + ", headers="
                + headers.stream().map(HeaderSpec::name).toList() + "]";
    }

    /** Whether this upstream signs in: OAuth on, and no Authorization of the user's own. */
    private boolean signsIn() {
        return oauth.enabled() && endpoint.getRawUserInfo() == null
                && headers.stream().noneMatch(h -> h.name().equalsIgnoreCase("Authorization"));
    }

    private void endSession() {
        if (state.end()) {
            warn.accept("the server ended the MCP session (HTTP 404 on its session id); every further request"
                    + " fails until the proxy is restarted");
            EventStream stream = eventStream;
            if (stream != null) {
                stream.stop();
            }
        }
    }

    private Link started() {
        Link l = link;
        if (l == null) {
            throw new IllegalStateException("the HTTP upstream was not started");
        }
        return l;
    }

    private static URI checked(URI endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
        if (!endpoint.isAbsolute() || endpoint.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new IllegalArgumentException("the upstream must be an http:// or https:// URL with a host, not "
                    + UrlRedactor.redact(endpoint));
        }
        // java.net.URI takes an authority it cannot read as host and port (a port too large
        // for an int, a host with '_') for a name without a host.
        if (endpoint.getHost() == null) {
            throw new IllegalArgumentException("the upstream URL has no valid host and port: " + UrlRedactor.redact(endpoint));
        }
        if (endpoint.getPort() == 0 || endpoint.getPort() > 65535) {
            throw new IllegalArgumentException("the upstream URL's port " + endpoint.getPort()
                    + " is out of range (1 to 65535)");
        }
        return endpoint;
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return d;
    }
}
