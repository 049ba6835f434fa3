package dev.stretto.proxy.http;

import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.redact.Secrets;
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
 */
final class McpHttp {

    static final String SESSION_ID = "Mcp-Session-Id";
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

    private final URI target;
    private final List<HeaderSpec> headers;
    private final Duration timeout;
    private final SessionState state;
    private final Reachability reachability;
    private final ExecutorService executor;
    private final HttpClient client;

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
        this.executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("stretto-http-io-", 0).factory());
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
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
        return send(postOf(body, initialize, bounded), HttpResponse.BodyHandlers.ofInputStream());
    }

    /**
     * POSTs one request without waiting: the answer's headers come as the future completes,
     * with no bound (a tool may run long). Cancelling the future abandons the exchange.
     *
     * @param initialize as for {@link #post}
     */
    CompletableFuture<HttpResponse<InputStream>> postRequest(byte[] body, boolean initialize) {
        CompletableFuture<HttpResponse<InputStream>> sent = client.sendAsync(postOf(body, initialize, false),
                HttpResponse.BodyHandlers.ofInputStream());
        sent.whenComplete((response, failure) -> {
            if (failure == null) {
                reachability.answered();
            } else if (unwrap(failure) instanceof IOException e && !PostExchange.isInterruption(e)) {
                reachability.failed(e);
            }
        });
        return sent;
    }

    /** The cause behind a failure of a future of the client's. */
    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private HttpRequest postOf(byte[] body, boolean initialize, boolean bounded) {
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
        return b.build();
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
        return send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
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
        HttpRequest request = b.build();
        try {
            HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
            reachability.answered();
            return response.statusCode();
        } catch (IOException e) {
            // A timeout is not a closed connection: the server is slow, and asking again would wait twice.
            if (PostExchange.isInterruption(e) || e instanceof HttpTimeoutException) {
                throw e;
            }
        }
        return send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        HttpResponse<T> response;
        try {
            response = client.send(request, body);
        } catch (IOException e) {
            if (!PostExchange.isInterruption(e)) {
                reachability.failed(e);
            }
            throw e;
        }
        reachability.answered();
        return response;
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
