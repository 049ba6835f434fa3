package dev.stretto.proxy.oracle;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.redact.UrlRedactor;
import dev.stretto.proxy.logging.Logger;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * The System-One service over HTTP: each {@link Request} is POSTed as JSON to
 * {@code <base URL>/v1/systemone} with {@code Authorization: Bearer <key>}, and the answer
 * read back as a {@link Response}.
 *
 * <p>An exchange may take 30 s. A busy or failing service (429, 500, 502, 503, 504, 529) and a
 * connection that cannot be made, times out or is dropped are tried again up to 4 times,
 * after 1, 2, 4 and 8 s; any other status fails at once with {@code TypeSafe returned
 * <status>: <body>}, as does a TLS failure (a certificate problem does not mend itself).
 *
 * <p>The key is sent in that header only: it is in no log line and no exception message, and
 * an error body that echoes it has it replaced by {@code <redacted>}. Safe to use from several
 * threads; {@link #ask(Request)} blocks its caller.
 */
public final class SystemOneClient implements AutoCloseable {

    /** How long one exchange may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** The waits before each retry; their number is the number of retries. */
    public static final List<Duration> BACKOFF =
            List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8));

    /** The statuses that mean "try again later". */
    public static final Set<Integer> RETRIED_STATUSES = Set.of(429, 500, 502, 503, 504, 529);

    // An error body goes into one log line or message; a whole HTML error page does not.
    private static final int MAX_BODY_SHOWN = 1000;

    /** Waits between attempts; tests pass one that does not sleep. */
    @FunctionalInterface
    interface Pause {
        void sleep(Duration d) throws InterruptedException;
    }

    private final ServiceSettings settings;
    private final URI endpoint;
    private final Duration timeout;
    private final Pause pause;
    private final HttpClient http;

    /**
     * A client for the service the settings name.
     *
     * @throws IllegalArgumentException if the settings' extra roots file cannot be loaded
     */
    public SystemOneClient(ServiceSettings settings) {
        this(settings, TIMEOUT, Thread::sleep);
    }

    SystemOneClient(ServiceSettings settings, Duration timeout, Pause pause) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.endpoint = settings.endpoint();
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.pause = Objects.requireNonNull(pause, "pause");
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (settings.extraRootsFile() != null) {
            b.sslContext(ExtraRoots.context(settings.extraRootsFile()));
        }
        this.http = b.build();
    }

    /**
     * Asks the service.
     *
     * @throws OracleException      when there is no key, the service keeps failing or cannot
     *                              be reached, or its answer cannot be read
     * @throws InterruptedException when the calling thread is interrupted (the exchange is
     *                              abandoned)
     */
    public Response ask(Request request) throws InterruptedException {
        ApiKey key = settings.apiKey();
        if (key == null) {
            throw new OracleException("no TypeSafe API key is set (TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE)");
        }
        HttpRequest post = HttpRequest.newBuilder(endpoint)
                .POST(HttpRequest.BodyPublishers.ofString(request.toJson(), StandardCharsets.UTF_8))
                .header("Authorization", "Bearer " + key.reveal())
                .header("Content-Type", "application/json")
                .timeout(timeout)
                .build();
        for (int attempt = 0; ; attempt++) {
            boolean lastAttempt = attempt == BACKOFF.size();
            String failure;
            try {
                HttpResponse<String> answer = exchange(post);
                int status = answer.statusCode();
                if (status >= 200 && status < 300) {
                    return read(answer.body(), key);
                }
                failure = "TypeSafe returned " + status + ": " + shown(answer.body(), key);
                if (!RETRIED_STATUSES.contains(status) || lastAttempt) {
                    throw new OracleException(failure);
                }
            } catch (IOException e) {
                failure = "TypeSafe cannot be reached at " + UrlRedactor.redact(endpoint) + ": " + describe(e, key);
                if (e instanceof SSLException || hasCause(e, SSLException.class)) {
                    throw new OracleException(failure, e);
                }
                if (lastAttempt) {
                    throw new OracleException(failure + " (tried " + (BACKOFF.size() + 1) + " times)", e);
                }
            }
            Duration wait = BACKOFF.get(attempt);
            Logger.warn("System-One: {}; trying again in {} s ({} of {})", failure, wait.toSeconds(), attempt + 1,
                    BACKOFF.size());
            pause.sleep(wait);
        }
    }

    /** One POST, bounded by the timeout as a whole (the request's own timeout stops at the headers). */
    private HttpResponse<String> exchange(HttpRequest post) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<String>> pending =
                http.sendAsync(post, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            return pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new HttpTimeoutException("no answer in time");
        } catch (InterruptedException e) {
            pending.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause() == null ? "the exchange failed" : e.getCause().toString(), e.getCause());
        }
    }

    private static Response read(String body, ApiKey key) {
        try {
            return Response.parse(body);
        } catch (IllegalArgumentException e) {
            throw new OracleException("TypeSafe's answer cannot be read: " + scrub(e.getMessage(), key));
        }
    }

    private String describe(IOException e, ApiKey key) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String reason = switch (t) {
                case HttpConnectTimeoutException x -> "timed out connecting";
                case HttpTimeoutException x -> "no answer within " + (timeout.toMillis() % 1000 == 0
                        ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms");
                case ConnectException x -> "connection refused";
                case UnknownHostException x -> "unknown host";
                case EOFException x -> "the connection was closed";
                case SSLException x -> "TLS failure: " + x.getMessage();
                default -> null;
            };
            if (reason != null) {
                return scrub(reason, key);
            }
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : scrub(message, key);
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** An error body as it goes into a message: on one line, shortened, without the key. */
    private static String shown(String body, ApiKey key) {
        String oneLine = scrub(body, key).strip().replaceAll("\\s*\\R\\s*", " ");
        if (oneLine.codePointCount(0, oneLine.length()) > MAX_BODY_SHOWN) {
            oneLine = oneLine.substring(0, oneLine.offsetByCodePoints(0, MAX_BODY_SHOWN)) + "…";
        }
        return oneLine;
    }

    private static String scrub(String text, ApiKey key) {
        return text == null ? null : text.replace(key.reveal(), UrlRedactor.REDACTED);
    }

    @Override
    public void close() {
        http.close();
    }

    @Override
    public String toString() {
        return "SystemOneClient[" + UrlRedactor.redact(endpoint) + "]";
    }
}
