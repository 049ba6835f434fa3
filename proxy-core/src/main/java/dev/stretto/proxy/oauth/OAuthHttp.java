package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.scope.Interruptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The HTTP exchanges of signing in: metadata documents fetched with GET, forms POSTed to the
 * token endpoint, JSON POSTed to the registration endpoint. Each is bounded by the timeout and
 * reads at most {@value #BODY_LIMIT} bytes of the answer; redirects are not followed (metadata
 * and tokens come from the URL asked, or not at all).
 */
final class OAuthHttp {

    /** What the metadata requests say they speak, as the SDK's client does. */
    static final String PROTOCOL_VERSION = "2025-11-25";

    static final int BODY_LIMIT = 1 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * An answer: its status, and its body as JSON (null when it is not JSON).
     */
    record Answer(int status, JsonNode json) {

        boolean ok() {
            return status >= 200 && status <= 299;
        }

        /** The OAuth error code of an error answer ({@code invalid_grant}, ...), or null. */
        String error() {
            return json != null && json.path("error").isTextual() ? json.get("error").textValue() : null;
        }

        /** "HTTP 400 invalid_grant: the description", shortened, for messages. */
        String describe() {
            StringBuilder s = new StringBuilder("HTTP ").append(status);
            String error = error();
            if (error != null) {
                s.append(' ').append(Texts.shown(error, 60));
            }
            if (json != null && json.path("error_description").isTextual()) {
                s.append(": ").append(Texts.shown(json.get("error_description").textValue(), 160));
            }
            return s.toString();
        }
    }

    private final HttpClient client;
    private final Duration timeout;

    OAuthHttp(HttpClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    Answer get(URI url) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url).GET()
                .header("Accept", "application/json")
                .header("MCP-Protocol-Version", PROTOCOL_VERSION));
    }

    Answer postForm(URI url, Map<String, String> form, Map<String, String> headers)
            throws IOException, InterruptedException {
        StringJoiner body = new StringJoiner("&");
        form.forEach((k, v) -> body.add(encode(k) + "=" + encode(v)));
        HttpRequest.Builder b = HttpRequest.newBuilder(url)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json");
        headers.forEach(b::header);
        return send(b);
    }

    Answer postJson(URI url, JsonNode json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(url)
                .POST(HttpRequest.BodyPublishers.ofString(json.toString(), StandardCharsets.UTF_8))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json"));
    }

    /**
     * A server of the sign-in (the resource's metadata, the authorization server) that could not
     * be reached, as a failed sign-in, so that the host is told it was the sign-in that failed; an
     * interruption is passed on as it is.
     */
    private static IOException unreachable(HttpRequest request, IOException e) throws InterruptedException {
        if (Interruptions.isInterruption(e)) {
            throw new InterruptedException();
        }
        URI url = request.uri();
        String why = e instanceof HttpTimeoutException ? "no answer in time"
                : e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
                : Texts.shown(e.getMessage(), 160);
        return new AuthorizationFailedException("cannot reach " + url.getScheme() + "://" + url.getHost()
                + (url.getPort() >= 0 ? ":" + url.getPort() : "") + " (" + why + ")");
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private Answer send(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpRequest request = b.timeout(timeout).build();
        HttpResponse<InputStream> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            if (Interruptions.isInterruption(e) || e instanceof HttpTimeoutException) {
                throw unreachable(request, e);
            }
            // The connection failed, most likely one of the client's pool that the server closed
            // while it sat idle (as it does while the person signs in): once more, on another. The
            // client itself retries only GET and HEAD on those.
            try {
                response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException again) {
                throw unreachable(request, again);
            }
        }
        byte[] body;
        try (InputStream in = response.body()) {
            body = in.readNBytes(BODY_LIMIT);
        }
        JsonNode json = null;
        if (body.length > 0) {
            try {
                json = JSON.readTree(body);
            } catch (IOException notJson) {
                // null: the caller says what it expected
            }
        }
        return new Answer(response.statusCode(), json);
    }
}
