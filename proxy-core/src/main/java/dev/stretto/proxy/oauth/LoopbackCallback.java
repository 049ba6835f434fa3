package dev.stretto.proxy.oauth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.scope.VirtualThreads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where the browser comes back after the sign-in: {@code http://127.0.0.1:PORT/callback} on the
 * loopback interface only (RFC 8252 section 7.3), for one authorization request. A callback
 * whose {@code state} is not that request's is refused (400) and the wait goes on, so a page that
 * sends the browser there with a code of its own cannot sign the proxy in as someone else; the
 * right one ends the wait with its code, or with the server's error. Each is answered with a
 * short page saying what happened.
 */
final class LoopbackCallback implements AutoCloseable {

    static final String PATH = "/callback";

    private final HttpServer server;
    private final ExecutorService executor;
    private final String state;
    private final CompletableFuture<String> code = new CompletableFuture<>();

    private LoopbackCallback(HttpServer server, ExecutorService executor, String state) {
        this.server = server;
        this.executor = executor;
        this.state = state;
    }

    /**
     * Listens on {@code port} (0: one the system picks) of 127.0.0.1.
     *
     * @throws IOException when the port cannot be had
     */
    static LoopbackCallback listen(int port, String state) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8);
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                VirtualThreads.named("stretto-oauth-callback-"));
        server.setExecutor(executor);
        LoopbackCallback callback = new LoopbackCallback(server, executor, state);
        // The browser's requests come on the server's threads: say their messages to the session's handler.
        ProxyMessages messages = Logger.current();
        server.createContext("/", exchange -> Logger.<Void, IOException>callWith(messages, () -> {
            callback.handle(exchange);
            return null;
        }));
        server.start();
        return callback;
    }

    int port() {
        return server.getAddress().getPort();
    }

    String redirectUri() {
        return "http://127.0.0.1:" + port() + PATH;
    }

    /**
     * The code the browser brings back.
     *
     * @throws AuthorizationFailedException when the server sent an error instead, or none came
     *                                      in {@code timeout}
     */
    String await(Duration timeout, String what) throws AuthorizationFailedException, InterruptedException {
        try {
            return code.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AuthorizationFailedException("the sign-in to " + what + " did not come back within "
                    + describe(timeout) + " (nobody opened the URL, or the browser never reached " + redirectUri()
                    + "); run 'stretto login " + what + "' in a terminal, then restart the host's server");
        } catch (ExecutionException e) {
            throw (AuthorizationFailedException) e.getCause();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH) || !exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 404, "Not found", "This is stretto-proxy's sign-in callback; nothing is here.");
                return;
            }
            Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
            String given = q.get("state");
            if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                    state.getBytes(StandardCharsets.UTF_8))) {
                Logger.warn("refused a sign-in callback whose state is not that of the sign-in under way"
                        + " (a stale tab, or a page trying to sign the proxy in as someone else); still waiting");
                reply(exchange, 400, "Sign-in refused", "This sign-in does not belong to the one stretto-proxy is"
                        + " waiting for (its state does not match), so it was refused. Start again from the URL the"
                        + " proxy printed.");
                return;
            }
            String error = q.get("error");
            if (error != null) {
                String description = q.get("error_description");
                code.completeExceptionally(new AuthorizationFailedException("the authorization server did not sign"
                        + " the proxy in: " + Texts.shown(error, 60)
                        + (description == null ? "" : " (" + Texts.shown(description, 200) + ")")));
                reply(exchange, 400, "Sign-in failed", "The authorization server answered " + Texts.shown(error, 60)
                        + ". You can close this tab.");
                return;
            }
            String c = q.get("code");
            if (c == null || c.isEmpty()) {
                reply(exchange, 400, "Sign-in failed", "The callback holds no authorization code.");
                return;
            }
            boolean first = code.complete(c);
            reply(exchange, 200, "Signed in", first ? "stretto-proxy is signed in. You can close this tab."
                    : "stretto-proxy was signed in already. You can close this tab.");
        }
    }

    private static void reply(HttpExchange exchange, int status, String title, String text) throws IOException {
        byte[] page = ("<!doctype html><meta charset=utf-8><title>" + title + "</title><h1>" + title + "</h1><p>"
                + text.replace("&", "&amp;").replace("<", "&lt;") + "</p>\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        exchange.sendResponseHeaders(status, page.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(page);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException ignored) {
                // a broken escape: the pair is skipped
            }
        }
        return out;
    }

    static String describe(Duration d) {
        long s = d.toSeconds();
        if (s >= 60 && s % 60 == 0) {
            return s / 60 + (s == 60 ? " minute" : " minutes");
        }
        return d.toMillis() < 1000 ? d.toMillis() + " ms" : s + (s == 1 ? " second" : " seconds");
    }
}
