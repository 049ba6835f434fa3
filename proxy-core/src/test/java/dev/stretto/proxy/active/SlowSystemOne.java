package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A slow System-One service on 127.0.0.1 (the remote model is the one part that cannot be
 * real): it answers every question the mock oracle's way (a choice's first option 0.6, the
 * rest sharing 0.4; a yes/no question 0.5), but only once the test lets it, standing in for a
 * model that takes seconds.
 */
final class SlowSystemOne implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch asked = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger answered = new AtomicInteger();

    SlowSystemOne() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/v1/systemone", this::answer);
        server.start();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = CanonicalJson.parse(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8));
            asked.countDown();
            if (!release.await(LiveHost.WAIT_S, TimeUnit.SECONDS)) {
                throw new IOException("the test never let the answer go");
            }
            Map<String, Answer> answers = new LinkedHashMap<>();
            request.path("questions").properties().forEach(q -> {
                if (q.getValue().path("type").asText().equals("noul")) {
                    answers.put(q.getKey(), new Answer.Noul(0.5));
                } else {
                    List<String> options = new ArrayList<>();
                    q.getValue().path("criteria").fieldNames().forEachRemaining(options::add);
                    Map<String, Double> p = new LinkedHashMap<>();
                    for (int i = 0; i < options.size(); i++) {
                        p.put(options.get(i), i == 0 ? 0.6 : 0.4 / (options.size() - 1));
                    }
                    answers.put(q.getKey(), new Answer.Choice(options.getFirst(), p, 0.6));
                }
            });
            byte[] body = Response.of("jev-test", answers, TokenUsage.NONE).toJson().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            answered.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The service's base URL. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Waits until a question has come. */
    void awaitQuestion() throws InterruptedException {
        if (!asked.await(LiveHost.WAIT_S, TimeUnit.SECONDS)) {
            throw new AssertionError("no question came within " + LiveHost.WAIT_S + " s");
        }
    }

    /** Lets the answers go. */
    void release() {
        release.countDown();
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
