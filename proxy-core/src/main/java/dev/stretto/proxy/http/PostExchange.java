package dev.stretto.proxy.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.http.PendingRequests.Pending;
import dev.stretto.proxy.http.ServerMessages.StreamEnd;
import dev.stretto.proxy.oauth.AuthorizationFailedException;
import dev.stretto.proxy.scope.Interruptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.stretto.proxy.logging.Logger;

/**
 * One message from the host, POSTed to the server, and everything the server answers on that
 * POST: nothing (202), one JSON body, or an event stream whose events go to the host as they
 * come. A stream that closes before the request's response is resumed with GET and
 * Last-Event-ID (the 2025-11-25 polling pattern) until the response comes or the attempts run
 * out. Whatever goes wrong, a request ends answered: by the server, or by the proxy's error;
 * unless the host cancelled it, which finishes it without an answer.
 *
 * <p>Runs on its own virtual thread, started by {@link HttpUpstream#send}.
 */
final class PostExchange implements Runnable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ERROR_BODY_LIMIT = 64 * 1024;
    private static final int DETAIL_LIMIT = 200;

    private final Link link;
    private final byte[] body;
    private final JsonRpcPeek message;
    private final Pending request;
    private final CompletableFuture<Void> gate;
    private final Runnable onAccepted;

    /**
     * @param request    the pending entry when the message is a request, else null
     * @param gate       completes once the session's headers are known (the initialize answer)
     * @param onAccepted run when a notification or response is accepted (2xx)
     */
    PostExchange(Link link, byte[] body, JsonRpcPeek message, Pending request, CompletableFuture<Void> gate,
            Runnable onAccepted) {
        this.link = link;
        this.body = body;
        this.message = message;
        this.request = request;
        this.gate = gate;
        this.onAccepted = onAccepted;
    }

    @Override
    public void run() {
        if (link.lifecycle().aborted()) {
            return;
        }
        try {
            awaitGate();
            if (link.lifecycle().cancelled()) {
                failOrWarn(Link.STOPPED_WAITING);
                return;
            }
            if (link.state().ended()) {
                failOrWarn(Link.SESSION_ENDED);
                return;
            }
            HttpResponse<InputStream> response;
            try {
                response = post();
            } catch (IOException e) {
                if (Interruptions.isInterruption(e)) {
                    throw new InterruptedException();
                }
                AuthorizationFailedException signIn = signInFailure(e);
                if (signIn != null) {
                    failOrWarn("upstream needs a sign-in (OAuth), which failed: "
                            + link.secrets().scrub(signIn.getMessage()));
                    return;
                }
                String why = "upstream unreachable: " + Causes.describe(e, link.secrets());
                if (request != null) {
                    link.messages().fail(request, why);
                } else if (!link.lifecycle().aborted()) {
                    // Said once for all messages, as a change of state (see Reachability).
                    Logger.debug("could not deliver {} to the server: {}", what(), why);
                }
                return;
            }
            if (response == null) {
                // Finished (cancelled by the host) before the server even answered: nothing is due.
                return;
            }
            handle(response);
        } catch (InterruptedException e) {
            if (!link.lifecycle().aborted()) {
                failOrWarn(Link.STOPPED_WAITING);
            }
        } catch (RuntimeException e) {
            // A request the client refuses to build, say: the host must still get its answer.
            failOrWarn("the proxy could not complete the exchange: " + Causes.describe(e, link.secrets()));
        }
    }

    /**
     * POSTs the message and waits for the answer's headers. A notification's or response's
     * answer is due at once (bounded by the timeout). A request's may take as long as its tool
     * runs, unless the request is finished meanwhile (the host cancelled it, or its response came
     * on another stream): then the headers get {@link Tuning#answeredGrace()} more, and after that
     * the exchange is abandoned and null returned.
     */
    private HttpResponse<InputStream> post() throws IOException, InterruptedException {
        if (request == null) {
            return link.http().post(body, isInitialize(), true);
        }
        CompletableFuture<HttpResponse<InputStream>> sent = link.http().postRequest(body, isInitialize());
        try {
            try {
                CompletableFuture.anyOf(sent, request.answered()).get();
            } catch (ExecutionException failed) {
                // The POST failed: said below.
            }
            if (!sent.isDone()) {
                return sent.get(link.tuning().answeredGrace().toNanos(), TimeUnit.NANOSECONDS);
            }
            return sent.get();
        } catch (TimeoutException finished) {
            sent.cancel(true);
            return null;
        } catch (InterruptedException e) {
            sent.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = McpHttp.unwrap(e.getCause());
            if (cause instanceof IOException io) {
                // As the client's blocking send throws it: the cause's message, the cause behind it.
                throw new IOException(io.getMessage(), io);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(cause);
        }
    }

    private void awaitGate() throws InterruptedException {
        try {
            gate.get();
        } catch (ExecutionException notUsed) {
            // The gate is only ever completed normally.
        }
    }

    private void handle(HttpResponse<InputStream> response) throws InterruptedException {
        int status = response.statusCode();
        if (status == 404 && McpHttp.sentSessionId(response)) {
            discard(response);
            link.lifecycle().sessionEnded();
            failOrWarn(Link.SESSION_ENDED);
            return;
        }
        if (status < 200 || status > 299) {
            refused(response);
            return;
        }
        if (isInitialize() && !takeSessionId(response)) {
            return;
        }
        if (request == null) {
            discard(response);
            onAccepted.run();
            return;
        }
        String type = McpHttp.mediaType(response);
        if (status == 202 || status == 204) {
            discard(response);
            link.messages().fail(request, "upstream accepted the request without answering it (HTTP " + status + ")");
        } else if (type.equals("application/json")) {
            json(response);
        } else if (type.equals("text/event-stream")) {
            stream(response);
        } else {
            discard(response);
            link.messages().fail(request, "upstream answered with an unsupported content type"
                    + (type.isEmpty() ? "" : " (" + link.secrets().scrub(type) + ")"));
        }
    }

    /** Keeps the session id of an initialize answer; false when it is unusable (and answered). */
    private boolean takeSessionId(HttpResponse<InputStream> response) {
        String id = response.headers().firstValue(McpHttp.SESSION_ID).orElse(null);
        if (id == null) {
            return true;
        }
        if (!SessionState.isValidSessionId(id)) {
            discard(response);
            link.messages().fail(request, "upstream sent a session id that cannot be sent back"
                    + " (only visible ASCII is allowed)");
            return false;
        }
        link.state().sessionId(id);
        return true;
    }

    private void json(HttpResponse<InputStream> response) throws InterruptedException {
        byte[] answer;
        try (InputStream in = response.body()) {
            answer = in.readAllBytes();
        } catch (IOException e) {
            if (Interruptions.isInterruption(e)) {
                throw new InterruptedException();
            }
            link.messages().fail(request, "the connection to the upstream broke during the answer: "
                    + Causes.describe(e, link.secrets()));
            return;
        }
        if (!link.messages().accept(answer, what())) {
            link.messages().fail(request, "upstream answered with a body that is not a JSON-RPC message");
            return;
        }
        link.messages().fail(request, "upstream answered without a response to this request");
    }

    private void stream(HttpResponse<InputStream> response) throws InterruptedException {
        StreamCursor cursor = new StreamCursor();
        StreamEnd end = readAnswerStream(response.body(), cursor);
        if (end.broken() != null && Interruptions.isInterruption(end.broken())) {
            throw new InterruptedException();
        }
        if (!link.pending().isPending(request)) {
            return;
        }
        if (cursor.lastEventId() == null) {
            link.messages().fail(request, end.broken() == null
                    ? "upstream closed the event stream before answering"
                    : "the upstream's event stream broke before the answer: "
                            + Causes.describe(end.broken(), link.secrets()));
            return;
        }
        resume(cursor);
    }

    /**
     * Reads one of the request's streams (the POST's own or a resumed one) to its end. A request
     * answered on any stream is finished: from then on the server has {@link Tuning#answeredGrace()}
     * to end this stream, as it should right after the response, before the proxy closes it. So a
     * stream the server keeps open (the resumed GET of the sse-retry scenario) does not keep the
     * request open, nor the session's end waiting for it.
     */
    private StreamEnd readAnswerStream(InputStream body, StreamCursor cursor) {
        Duration grace = link.tuning().answeredGrace();
        CompletableFuture<Void> closeLater = request.answered().thenRunAsync(() -> discard(body),
                CompletableFuture.delayedExecutor(grace.toNanos(), TimeUnit.NANOSECONDS, Runnable::run));
        try {
            return link.messages().read(body, cursor, what(), true);
        } finally {
            closeLater.cancel(false);
        }
    }

    /** Reopens the request's stream with GET and Last-Event-ID until its response comes. */
    private void resume(StreamCursor cursor) throws InterruptedException {
        Tuning tuning = link.tuning();
        int failures = 0;
        while (link.pending().isPending(request)) {
            Duration delay = tuning.delay(failures, cursor.retryMillis());
            try {
                // The response may also come on the standalone stream meanwhile.
                request.answered().get(delay.toMillis(), TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException stillWaiting) {
                // time to reconnect
            } catch (ExecutionException notUsed) {
                return;
            }
            if (link.lifecycle().cancelled()) {
                throw new InterruptedException();
            }
            if (link.state().ended()) {
                link.messages().fail(request, Link.SESSION_ENDED);
                return;
            }
            String before = cursor.lastEventId();
            boolean progress = false;
            try {
                HttpResponse<InputStream> response = link.http().get(before);
                int status = response.statusCode();
                if (status == 405) {
                    discard(response);
                    link.messages().fail(request,
                            "upstream closed the event stream before answering and does not let it be resumed");
                    return;
                }
                if (status == 404 && McpHttp.sentSessionId(response)) {
                    discard(response);
                    link.lifecycle().sessionEnded();
                    link.messages().fail(request, Link.SESSION_ENDED);
                    return;
                }
                if (status >= 200 && status <= 299 && McpHttp.mediaType(response).equals("text/event-stream")) {
                    StreamEnd end = readAnswerStream(response.body(), cursor);
                    if (end.broken() != null && Interruptions.isInterruption(end.broken())) {
                        throw new InterruptedException();
                    }
                    progress = !Objects.equals(before, cursor.lastEventId());
                } else {
                    discard(response);
                }
            } catch (IOException e) {
                if (Interruptions.isInterruption(e)) {
                    throw new InterruptedException();
                }
            }
            failures = progress ? 0 : failures + 1;
            if (failures >= tuning.resumeAttempts()) {
                link.messages().fail(request, "upstream closed the event stream before answering, and resuming it"
                        + " failed " + failures + " times");
                return;
            }
        }
    }

    private void refused(HttpResponse<InputStream> response) {
        int status = response.statusCode();
        byte[] answer = readSome(response);
        JsonRpcPeek peek = JsonRpcPeek.of(answer);
        if (request != null && peek.kind() == JsonRpcPeek.Kind.RESPONSE && request.id().equals(peek.id())) {
            // The server answered the request itself, with an HTTP error status: pass it on.
            link.messages().accept(answer, what());
        }
        failOrWarn("upstream answered HTTP " + status + detail(answer));
    }

    /** ": message" from a JSON-RPC error body, scrubbed and shortened; "" when there is none. */
    private String detail(byte[] answer) {
        if (answer.length == 0) {
            return "";
        }
        try {
            JsonNode error = JSON.readTree(answer).path("error");
            JsonNode text = error.isTextual() ? error : error.path("message");
            if (!text.isTextual() || text.asText().isBlank()) {
                return "";
            }
            String s = link.secrets().scrub(text.asText().strip());
            if (s.length() > DETAIL_LIMIT) {
                s = s.substring(0, DETAIL_LIMIT) + "...";
            }
            return ": " + s;
        } catch (IOException | RuntimeException notJson) {
            return "";
        }
    }

    private void failOrWarn(String why) {
        if (link.lifecycle().aborted()) {
            return;
        }
        if (request != null) {
            link.messages().fail(request, why);
        } else {
            link.warn().accept("could not deliver " + what() + " to the server: " + why);
        }
    }

    private String what() {
        return switch (message.kind()) {
            case REQUEST -> "request " + message.id() + " (" + message.method() + ")";
            case NOTIFICATION -> "notification " + message.method();
            case RESPONSE -> "the host's answer to server request " + message.id();
            default -> "a message from the host";
        };
    }

    private boolean isInitialize() {
        return request != null && request.isInitialize();
    }

    private static byte[] readSome(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            return in.readNBytes(ERROR_BODY_LIMIT);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static void discard(HttpResponse<InputStream> response) {
        discard(response.body());
    }

    private static void discard(InputStream body) {
        try {
            body.close();
        } catch (IOException ignored) {
            // Nothing more is read from it.
        }
    }

    /** The sign-in's failure behind {@code e}, or null when it is another. */
    static AuthorizationFailedException signInFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AuthorizationFailedException a) {
                return a;
            }
        }
        return null;
    }
}
