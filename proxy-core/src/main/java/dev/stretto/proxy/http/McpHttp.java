package dev.stretto.proxy.http;

import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.oauth.UpstreamAuth;
import dev.stretto.proxy.redact.Secrets;
import dev.stretto.proxy.scope.Interruptions;
import dev.stretto.proxy.scope.VirtualThreads;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP side of one MCP endpoint: builds the POST, GET and DELETE requests with the
 * transport's headers (Accept, Content-Type, Mcp-Session-Id, MCP-Protocol-Version,
 * Last-Event-ID) and the user's extra headers, and sends them on one shared JDK client whose
 * work runs on virtual threads. Calls block the calling (virtual) thread; interrupting it
 * cancels the exchange. Every call tells {@link Reachability} whether the server answered.
 *
 * <p>This is also the one place where OAuth meets the transport ({@link UpstreamAuth}): every
 * request gets its {@code Authorization} header here, and a refusal the sign-in handles (401,
 * or 403 for lack of scope) is handed to it, then the request sent again, at most {@value
 * #AUTH_ATTEMPTS} times in all. The host's POSTs may start a sign-in (and wait for it); the GET
 * stream and the DELETE only wait for one under way, or refresh.
 */
final class McpHttp {

    static final String SESSION_ID = "Mcp-Session-Id";
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

    /** How often one message is sent at most when the server refuses its authorization. */
    static final int AUTH_ATTEMPTS = 3;

    private final URI target;
    private final List<HeaderSpec> headers;
    private final Duration timeout;
    private final SessionState state;
    private final Reachability reachability;
    private final ExecutorService executor;
    private final HttpClient client;
    private volatile UpstreamAuth auth = UpstreamAuth.NONE;

    /**
     * @param endpoint the MCP endpoint; user info in it becomes a Basic Authorization header
     *                 (unless the headers hold an Authorization of their own) and is not
     *                 sent in the request line
     */
    McpHttp(URI endpoint, List<HeaderSpec> headers, Duration timeout, SessionState state, Reachability reachability) {
        this.target = withoutUserInfo(endpoint);
        this.headers = withBasicAuth(endpoint, headers);
        this.timeout = timeout;
        this.state = state;
        this.reachability = reachability;
        this.executor = Executors.newThreadPerTaskExecutor(VirtualThreads.named("stretto-http-io-"));
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
    }

    /** The client, for the sign-in's own requests. */
    HttpClient client() {
        return client;
    }

    /** Signs requests in with {@code auth}; set before the first request. */
    void authorizeWith(UpstreamAuth auth) {
        this.auth = auth;
    }

    /**
     * The secrets this client sends: extra header values and the authorization made from the
     * URL's user info, with the URL's own credentials (see {@link Secrets#sentTo}).
     */
    static Secrets secrets(URI endpoint, List<HeaderSpec> headers) {
        List<String> values = new ArrayList<>();
        for (HeaderSpec h : withBasicAuth(endpoint, headers)) {
            values.add(h.value());
        }
        return Secrets.sentTo(endpoint, values);
    }

    /**
     * POSTs one message.
     *
     * @param initialize true for an initialize request, which starts a session and so
     *                   carries neither session id nor protocol version
     * @param bounded    true to bound the wait for the answer's headers by the timeout
     *                   (notifications and responses are answered at once; a request's answer
     *                   may take as long as the tool runs)
     */
    HttpResponse<InputStream> post(byte[] body, boolean initialize, boolean bounded)
            throws IOException, InterruptedException {
        return send(postOf(body, initialize, bounded), HttpResponse.BodyHandlers.ofInputStream(), true);
    }

    /**
     * POSTs one request without waiting: the answer's headers come as the future completes,
     * with no bound (a tool may run long). Cancelling the future abandons the exchange.
     *
     * @param initialize as for {@link #post}
     */
    CompletableFuture<HttpResponse<InputStream>> postRequest(byte[] body, boolean initialize) {
        return sendAsync(postOf(body, initialize, false), 1);
    }

    /**
     * Sends without waiting; a refusal for the sign-in is handled on a virtual thread of the
     * client's executor (a sign-in may take minutes), then the request is sent again.
     */
    private CompletableFuture<HttpResponse<InputStream>> sendAsync(HttpRequest.Builder request, int attempt) {
        // The refusal is handled on another thread: its messages go where this thread's do.
        ProxyMessages messages = Logger.current();
        String authorization;
        try {
            authorization = auth.authorization();
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<HttpResponse<InputStream>> sent = client.sendAsync(withAuthorization(request, authorization),
                HttpResponse.BodyHandlers.ofInputStream());
        sent.whenComplete((response, failure) -> {
            if (failure == null) {
                reachability.answered();
            } else if (unwrap(failure) instanceof IOException e && !Interruptions.isInterruption(e)) {
                reachability.failed(e);
            }
        });
        if (attempt >= AUTH_ATTEMPTS) {
            return sent;
        }
        return sent.thenCompose(response -> {
            List<String> challenges = response.headers().allValues("WWW-Authenticate");
            if (!auth.wants(response.statusCode(), challenges)) {
                return CompletableFuture.completedFuture(response);
            }
            CompletableFuture<Boolean> again = CompletableFuture.supplyAsync(Logger.carryCall(messages, () ->
                    auth.refused(response.statusCode(), challenges, authorization, true)), executor);
            return again.thenCompose(retry -> {
                if (!retry) {
                    return CompletableFuture.completedFuture(response);
                }
                discard(response);
                return Logger.callWith(messages, () -> sendAsync(request, attempt + 1));
            });
        });
    }

    /** The cause behind a failure of a future of the client's. */
    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private HttpRequest.Builder postOf(byte[] body, boolean initialize, boolean bounded) {
        HttpRequest.Builder b = HttpRequest.newBuilder(target)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        if (!initialize) {
            sessionHeaders(b);
        }
        if (bounded) {
            b.timeout(timeout);
        }
        extraHeaders(b);
        return b;
    }

    /** Opens (or resumes, with {@code lastEventId}) an event stream with GET. */
    HttpResponse<InputStream> get(String lastEventId) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(target).GET()
                .header("Accept", "text/event-stream")
                .timeout(timeout);
        sessionHeaders(b);
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        extraHeaders(b);
        return send(b, HttpResponse.BodyHandlers.ofInputStream(), false);
    }

    /**
     * Ends the session with DELETE; returns the status. DELETE is idempotent, so a request that
     * failed on its connection is sent once more: the client's pool may hand out a connection the
     * server closed while it sat idle, and the client itself retries only GET and HEAD on those.
     */
    int delete() throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(target).DELETE().timeout(timeout);
        sessionHeaders(b);
        extraHeaders(b);
        return send(b, HttpResponse.BodyHandlers.discarding(), false, true).statusCode();
    }

    /**
     * Sends the request with its authorization; a refusal the sign-in handles is handed to it
     * (which signs in only when {@code interactive}), and the request sent again.
     */
    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body,
                                     boolean interactive) throws IOException, InterruptedException {
        return send(request, body, interactive, false);
    }

    /**
     * As {@link #send(HttpRequest.Builder, HttpResponse.BodyHandler, boolean)}; with {@code
     * idempotent}, a request that failed on its connection is sent once more.
     */
    private <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body,
                                     boolean interactive, boolean idempotent) throws IOException, InterruptedException {
        boolean resend = idempotent;
        for (int attempt = 1; ; attempt++) {
            String authorization = auth.authorization();
            HttpResponse<T> response;
            try {
                response = client.send(withAuthorization(request, authorization), body);
            } catch (IOException e) {
                // A timeout is not a closed connection: the server is slow, and asking again would wait twice.
                if (resend && !Interruptions.isInterruption(e) && !(e instanceof HttpTimeoutException)) {
                    resend = false;
                    attempt--;
                    continue;
                }
                if (!Interruptions.isInterruption(e)) {
                    reachability.failed(e);
                }
                throw e;
            }
            reachability.answered();
            List<String> challenges = response.headers().allValues("WWW-Authenticate");
            if (attempt >= AUTH_ATTEMPTS || !auth.wants(response.statusCode(), challenges)
                    || !auth.refused(response.statusCode(), challenges, authorization, interactive)) {
                return response;
            }
            discard(response);
        }
    }

    private static HttpRequest withAuthorization(HttpRequest.Builder request, String authorization) {
        HttpRequest.Builder b = request.copy();
        if (authorization != null) {
            b.setHeader("Authorization", authorization);
        }
        return b.build();
    }

    private static void discard(HttpResponse<?> response) {
        if (response.body() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing more is read from it
            }
        }
    }

    /** True when the request behind {@code response} carried a session id. */
    static boolean sentSessionId(HttpResponse<?> response) {
        return response.request().headers().firstValue(SESSION_ID).isPresent();
    }

    /** The media type of a response, lowercased, without parameters; "" when absent. */
    static String mediaType(HttpResponse<?> response) {
        String value = response.headers().firstValue("Content-Type").orElse("");
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /** Aborts every exchange and stops the client's threads. */
    void shutdownNow() {
        client.shutdownNow();
        executor.shutdownNow();
    }

    private void sessionHeaders(HttpRequest.Builder b) {
        String id = state.sessionId();
        if (id != null) {
            b.header(SESSION_ID, id);
        }
        String version = state.protocolVersion();
        if (version != null) {
            b.header(PROTOCOL_VERSION, version);
        }
    }

    private void extraHeaders(HttpRequest.Builder b) {
        for (HeaderSpec h : headers) {
            b.header(h.name(), h.value());
        }
    }

    private static List<HeaderSpec> withBasicAuth(URI endpoint, List<HeaderSpec> headers) {
        String userInfo = endpoint.getUserInfo();
        boolean hasAuthorization = headers.stream().anyMatch(h -> h.name().equalsIgnoreCase("Authorization"));
        if (userInfo == null || hasAuthorization) {
            return List.copyOf(headers);
        }
        List<HeaderSpec> out = new ArrayList<>(headers);
        String token = Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        out.add(new HeaderSpec("Authorization", "Basic " + token));
        return List.copyOf(out);
    }

    private static URI withoutUserInfo(URI endpoint) {
        if (endpoint.getRawUserInfo() == null) {
            return endpoint;
        }
        StringBuilder s = new StringBuilder(endpoint.getScheme()).append("://").append(endpoint.getHost());
        if (endpoint.getPort() >= 0) {
            s.append(':').append(endpoint.getPort());
        }
        if (endpoint.getRawPath() != null) {
            s.append(endpoint.getRawPath());
        }
        if (endpoint.getRawQuery() != null) {
            s.append('?').append(endpoint.getRawQuery());
        }
        try {
            return new URI(s.toString());
        } catch (URISyntaxException cannotHappen) {
            throw new IllegalArgumentException("the upstream URL cannot be used without its user info", cannotHappen);
        }
    }
}
