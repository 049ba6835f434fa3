// stretto-proxy --listen in front of server-everything on stdio, against supergateway's
// stdio-to-Streamable-HTTP bridge in front of the same server, in the same rounds (see
// Benchmark.java).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

final class ListenTiming {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}";

    private ListenTiming() {
    }

    /** One of the two bridges, started in front of a fresh server for each round. */
    private enum Bridge {
        LISTEN("stretto-proxy --listen"), SUPERGATEWAY("supergateway 4.0.0 --stateful");

        final String label;

        Bridge(String label) {
            this.label = label;
        }
    }

    /**
     * {@code rounds} rounds; in each, each bridge (in an order that alternates) is started,
     * gives one session {@code pings} pings one after the other (after a warm-up of as many),
     * for the round trip's p50 and p99, then {@code sessions} sessions at once each make {@code
     * calls} echo calls one after the other, for the calls per second of all of them (the
     * sessions' start, a server each, not counted). Every answer is checked.
     */
    static void run(Path root, int rounds, int pings, int sessions, int calls) throws Exception {
        Path everything = root.resolve(".cache/reference-server/node_modules/.bin/mcp-server-everything");
        Path gateway = root.resolve(".cache/supergateway/node_modules/supergateway/dist/index.js");
        if (!Files.isExecutable(everything) || !Files.isRegularFile(gateway)) {
            Process install = new ProcessBuilder(root.resolve("bin/lib/npm-install").toString(), "reference-server",
                    "supergateway").inheritIO().start();
            if (install.waitFor() != 0) {
                throw new IllegalStateException("bin/lib/npm-install reference-server supergateway failed");
            }
        }
        Map<Bridge, Map<String, List<Double>>> values = new LinkedHashMap<>();
        for (Bridge b : Bridge.values()) {
            values.put(b, new LinkedHashMap<>());
        }
        for (int r = 0; r < rounds; r++) {
            List<Bridge> order = new ArrayList<>(List.of(Bridge.values()));
            if (r % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (Bridge b : order) {
                Process process = start(b, root, everything, gateway);
                try {
                    URI url = url(b, process);
                    Map<String, List<Double>> v = values.get(b);
                    double[] rtt = roundTrips(url, pings);
                    v.computeIfAbsent("p50", k -> new ArrayList<>()).add(rtt[0]);
                    v.computeIfAbsent("p99", k -> new ArrayList<>()).add(rtt[1]);
                    v.computeIfAbsent("cps", k -> new ArrayList<>()).add(callsPerSecond(url, sessions, calls));
                } finally {
                    stop(process);
                }
            }
            System.err.printf("listen: round %d of %d done%n", r + 1, rounds);
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nHosts over HTTP: server-everything on stdio"
                + " behind a Streamable HTTP bridge, median of %d rounds (%s)%n%n| measure | %s | %s | stretto against"
                + " supergateway |%n| --- | ---: | ---: | ---: |%n", rounds, Benchmark.today(), Bridge.LISTEN.label,
                Bridge.SUPERGATEWAY.label));
        row(out, "round trip p50 (ping)", values, "p50", "%.0f µs", false);
        row(out, "round trip p99 (ping)", values, "p99", "%.0f µs", false);
        row(out, sessions + " sessions at once, " + calls + " echo calls each: calls per second", values, "cps", "%.0f",
                true);
        System.out.print(out);
    }

    private static void row(StringBuilder out, String what, Map<Bridge, Map<String, List<Double>>> values, String key,
                            String format, boolean higherIsBetter) {
        double ours = Benchmark.median(values.get(Bridge.LISTEN).get(key));
        double theirs = Benchmark.median(values.get(Bridge.SUPERGATEWAY).get(key));
        out.append(String.format(Locale.ROOT, "| %s | " + format + " | " + format + " | %.2f× %s |%n", what, ours, theirs,
                ours / theirs, higherIsBetter ? "as many" : "the time"));
    }

    private static Process start(Bridge b, Path root, Path everything, Path gateway) throws IOException {
        List<String> command = switch (b) {
            case LISTEN -> List.of(root.resolve("bin/stretto-proxy").toString(), "--listen", "127.0.0.1:0",
                    "--log-level", "warn", "--listen-max-sessions", "1000", "--", everything.toString());
            case SUPERGATEWAY -> List.of("node", gateway.toString(), "--stdio", everything.toString(),
                    "--outputTransport", "streamableHttp", "--stateful", "--port", Integer.toString(freePort()),
                    "--logLevel", "none");
        };
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static URI url(Bridge b, Process p) throws Exception {
        if (b == Bridge.LISTEN) {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null) {
                throw new IllegalStateException("stretto-proxy --listen printed no URL");
            }
            return URI.create(line);
        }
        String port = p.info().arguments().map(Arrays::asList).map(a -> a.get(a.indexOf("--port") + 1)).orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(port))) {
                return URI.create("http://127.0.0.1:" + port + "/mcp");
            } catch (IOException notYet) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("supergateway did not listen on " + port);
                }
                Thread.sleep(20);
            }
        }
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The p50 and p99 of {@code n} pings in µs, after {@code n} of warm-up. */
    private static double[] roundTrips(URI url, int n) throws Exception {
        try (Session s = Session.open(url)) {
            for (int i = 0; i < n; i++) {
                s.request(1000 + i, "ping", "{}", "\"result\":{}");
            }
            double[] us = new double[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                s.request(100_000 + i, "ping", "{}", "\"result\":{}");
                us[i] = (System.nanoTime() - t0) / 1e3;
            }
            Arrays.sort(us);
            return new double[] {us[n / 2], us[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)]};
        }
    }

    /** Calls per second of {@code sessions} sessions at once, each making {@code calls} echo calls in turn. */
    private static double callsPerSecond(URI url, int sessions, int calls) throws Exception {
        List<Session> open = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Session>> opening = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                opening.add(pool.submit(() -> Session.open(url)));
            }
            for (Future<Session> f : opening) {
                open.add(f.get());
            }
            // A call per session first: the server registers what it has a moment after it starts.
            List<Callable<Void>> work = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                Session s = open.get(i);
                String text = "session " + i;
                work.add(() -> {
                    for (int c = 0; c < calls; c++) {
                        s.request(10 + c, "tools/call", "{\"name\":\"echo\",\"arguments\":{\"message\":\"" + text + "\"}}",
                                "Echo: " + text);
                    }
                    return null;
                });
            }
            long t0 = System.nanoTime();
            for (Future<Void> f : pool.invokeAll(work)) {
                f.get();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            return sessions * (double) calls / seconds;
        } finally {
            for (Session s : open) {
                s.close();
            }
        }
    }

    /** One Streamable HTTP session, as a plain client speaks it: POSTs accepting both answers, a DELETE at the end. */
    private record Session(HttpClient http, URI url, String id) implements AutoCloseable {

        static Session open(URI url) throws Exception {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> r = http.send(post(url, null, INIT), HttpResponse.BodyHandlers.ofString());
            String id = r.headers().firstValue("mcp-session-id").orElseThrow(() ->
                    new IllegalStateException("no session id: " + r.statusCode() + " " + r.body()));
            if (!r.body().contains("\"protocolVersion\"")) {
                throw new IllegalStateException("initialize: " + r.body());
            }
            HttpResponse<String> n = http.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.ofString());
            if (n.statusCode() != 202) {
                throw new IllegalStateException("initialized: " + n.statusCode());
            }
            return new Session(http, url, id);
        }

        private static HttpRequest post(URI url, String id, String body) {
            HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (id != null) {
                b.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", "2025-06-18");
            }
            return b.build();
        }

        void request(int n, String method, String params, String expected) throws Exception {
            HttpResponse<String> r = http.send(post(url, id, "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"method\":\"" + method
                    + "\",\"params\":" + params + "}"), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"id\":" + n) || !r.body().contains(expected)) {
                throw new IllegalStateException(method + " " + n + ": " + r.statusCode() + " " + r.body());
            }
        }

        @Override
        public void close() throws Exception {
            http.send(HttpRequest.newBuilder(url).header("Mcp-Session-Id", id).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
            http.close();
        }
    }
}
