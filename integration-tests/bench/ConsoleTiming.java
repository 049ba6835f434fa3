// How long `stretto console` takes to list many sessions (see Benchmark.java).

import dev.stretto.cli.console.ConsoleServer;
import dev.stretto.cli.console.source.Root;
import dev.stretto.cli.tools.ConsoleEngine;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

final class ConsoleTiming {

    private ConsoleTiming() {
    }

    /**
     * Copies of the six shop logs of the test data (with their conversation), each with a fresh
     * session id, in ten directories; a console started on them in this JVM; then, over HTTP as a
     * browser asks: the first sessions page (the index reads every log), the same page again
     * with nothing changed (median of the repeats; the baseline is the first), a search for
     * one session's order, and the page after one log grew. Each page's rows are checked.
     */
    static void run(Path root, int sessions, int repeats) throws Exception {
        Path dir = Files.createTempDirectory("stretto-bench-console");
        try {
            List<Path> shop = ShopLogs.of(root);
            Path last = null;
            for (int i = 0; i < sessions; i++) {
                ShopLogs.Copy copy = ShopLogs.copy(shop, i);
                // Started when its id says, so that the newest is the last copy.
                String text = copy.text().replaceFirst("\"started_unix_ms\":\\d+",
                        "\"started_unix_ms\":" + (1798761600000L + i * 1000L));
                Path sub = Files.createDirectories(dir.resolve("logs/d" + i % 10));
                last = Files.writeString(sub.resolve(copy.id() + ".jsonl"), text, StandardCharsets.UTF_8);
            }
            try (ConsoleServer console = ConsoleServer.start(List.of(Root.given(dir)), 0, new ConsoleEngine(),
                    new PrintStream(System.err, true, StandardCharsets.UTF_8))) {
                HttpClient http = HttpClient.newHttpClient();
                String q = console.url().getQuery();
                String cookie = "stretto-console-" + console.port() + "=" + q.substring(q.indexOf('=') + 1);
                String base = "http://127.0.0.1:" + console.port();
                String newest = last.getFileName().toString().replace(".jsonl", "");
                double first = page(http, base + "/", cookie, newest, sessions);
                List<Double> warm = new ArrayList<>();
                for (int r = 0; r < repeats; r++) {
                    warm.add(page(http, base + "/", cookie, newest, sessions));
                }
                List<Double> search = new ArrayList<>();
                for (int r = 0; r < repeats; r++) {
                    search.add(page(http, base + "/?q=%23W1b", cookie, null, 0));
                }
                Files.writeString(last, Files.readString(last) + "{\"t_ms\":99999,\"from\":\"context\",\"message\":"
                        + "{\"role\":\"user\",\"content\":\"thanks\"}}\n");
                double changed = page(http, base + "/", cookie, newest, sessions);
                double w = Benchmark.median(warm);
                System.out.printf(Locale.ROOT, "stretto console, %,d sessions: the first sessions page %.0f ms (every"
                        + " log read); again %.0f ms (%.1f%% of the first; median of %d); a search %.0f ms; after one"
                        + " log grew %.0f ms%n", sessions, first, w, 100 * w / first, repeats,
                        Benchmark.median(search), changed);
            }
        } finally {
            Benchmark.emptyDirectory(dir);
            Files.deleteIfExists(dir);
        }
    }

    /** One GET of a page, in ms; checks its status, its newest row and its count. */
    private static double page(HttpClient http, String url, String cookie, String newest, int total) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + ": status " + r.statusCode());
        }
        if (newest != null && !r.body().contains(">" + newest + "</a>")) {
            throw new IllegalStateException(url + ": the newest session " + newest + " is not on the first page");
        }
        if (total > 0 && !r.body().contains(String.format(Locale.ROOT, "of %,d sessions", total))) {
            throw new IllegalStateException(url + ": not " + total + " sessions");
        }
        if (newest == null && !r.body().contains("sessions matching")) {
            throw new IllegalStateException(url + ": no search result");
        }
        return ms;
    }
}
