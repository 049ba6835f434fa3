package dev.stretto.cli.console;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stretto.cli.console.html.Assets;
import dev.stretto.cli.console.html.FlowsPage;
import dev.stretto.cli.console.html.GuardsPage;
import dev.stretto.cli.console.html.Layout;
import dev.stretto.cli.console.html.SessionPage;
import dev.stretto.cli.console.html.SessionsPage;
import dev.stretto.cli.console.index.FlowCatalog;
import dev.stretto.cli.console.index.GuardBook;
import dev.stretto.cli.console.index.SessionFilter;
import dev.stretto.cli.console.index.SessionIndex;
import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.Found;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.Root;
import dev.stretto.cli.console.source.SessionRead;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The console's web server: the JDK's HttpServer on 127.0.0.1 only, one virtual thread per
 * request. Every request must name this console as its host and carry its token (see {@link
 * Access}); every page carries a policy that runs only its own inline script and style. Files
 * are named in URLs by their key in the index, so only logs and flows the index found under the
 * roots can be asked for.
 */
public final class ConsoleServer implements AutoCloseable {

    private final HttpServer http;
    private final ExecutorService threads;
    private final Access access;
    private final SessionIndex index;
    private final FlowCatalog flows;
    private final GuardBook guards;
    private final ProxyEngine engine;
    private final PrintStream err;
    private volatile boolean stopped;

    private ConsoleServer(HttpServer http, ExecutorService threads, List<Root> roots, ProxyEngine engine,
                          PrintStream err) {
        this.http = http;
        this.threads = threads;
        this.access = Access.random(http.getAddress().getPort());
        this.engine = engine;
        this.index = new SessionIndex(roots, engine);
        this.flows = new FlowCatalog(engine);
        this.guards = new GuardBook(engine);
        this.err = err;
    }

    /**
     * Starts a console.
     *
     * @param roots  the directories it reads
     * @param port   the port on 127.0.0.1, 0 for any free one
     * @param engine reads the proxy's own formats
     * @param err    where a request that fails inside is named, one line each
     * @return the running console
     * @throws IOException when the port cannot be had
     */
    public static ConsoleServer start(List<Root> roots, int port, ProxyEngine engine, PrintStream err)
            throws IOException {
        Objects.requireNonNull(engine, "engine");
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
                port), 64);
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        http.setExecutor(threads);
        ConsoleServer console = new ConsoleServer(http, threads, roots, engine, err);
        http.createContext("/", console::handle);
        http.start();
        return console;
    }

    /** {@return the port it listens on} */
    public int port() {
        return http.getAddress().getPort();
    }

    /** {@return the address to open, with the token} */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + "/?" + Access.PARAM + "=" + access.token());
    }

    /** {@return the index of sessions it serves} */
    public SessionIndex index() {
        return index;
    }

    /** Stops serving: open event streams end, and the port is free again. */
    @Override
    public void close() {
        stopped = true;
        http.stop(0);
        threads.shutdownNow();
        index.close();
    }

    private void handle(HttpExchange ex) {
        // Not try-with-resources: the exchange must still be open when a failure is answered.
        try {
            serve(ex);
        } catch (IOException e) {
            // The browser went away.
        } catch (RuntimeException e) {
            err.println("stretto: console: " + ex.getRequestURI().getRawPath() + ": " + e);
            try {
                html(ex, 500, Layout.message("Something went wrong", "The console could not build this page: " + e,
                        true));
            } catch (IOException | RuntimeException ignored) {
                // The response had begun; there is no more to say.
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ex.close();
        }
    }

    private void serve(HttpExchange ex) throws IOException, InterruptedException {
        String method = ex.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            ex.getResponseHeaders().set("Allow", "GET, HEAD");
            html(ex, 405, Layout.message("Not allowed", "The console only answers GET.", false));
            return;
        }
        if (!access.hostAllowed(ex.getRequestHeaders().getFirst("Host"))) {
            html(ex, 403, Layout.message("Forbidden", "The console answers only requests for 127.0.0.1:" + port()
                    + " or localhost:" + port() + ".", false));
            return;
        }
        RequestPath path = RequestPath.of(ex.getRequestURI().getRawPath(), ex.getRequestURI().getRawQuery());
        if (access.isToken(path.query().get(Access.PARAM))) {
            ex.getResponseHeaders().add("Set-Cookie", access.setCookie());
            ex.getResponseHeaders().set("Location", withoutToken(ex.getRequestURI()));
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            ex.sendResponseHeaders(303, -1);
            return;
        }
        if (!access.hasCookie(ex.getRequestHeaders().get("Cookie"))) {
            html(ex, 403, Layout.message("This console needs its link", "Open the address stretto console printed"
                    + " when it started: it carries the token that lets a browser in. Session logs hold whatever"
                    + " the tools read, so nothing is shown without it.", false));
            return;
        }
        List<String> s = path.segments();
        if (s == null) {
            notFound(ex);
            return;
        }
        if (s.isEmpty()) {
            html(ex, 200, SessionsPage.render(index.list(SessionFilter.of(path.query())), index.roots()));
        } else if (s.size() == 1 && s.getFirst().equals("flows")) {
            html(ex, 200, FlowsPage.render(flows.flows(index.refresh()), index.roots()));
        } else if (s.size() == 1 && s.getFirst().equals("guards")) {
            guardsPage(ex, path.query().get("dir"));
        } else if (s.size() >= 3 && (s.getFirst().equals("session") || s.getFirst().equals("live"))) {
            FileKey key = FileKey.parse(String.join("/", s.subList(1, s.size())));
            Found found = key == null ? null : index.find(key);
            if (found == null || index.roots().get(key.root()).file(key.relative()) == null) {
                notFound(ex);
            } else if (s.getFirst().equals("session")) {
                sessionPage(ex, found);
            } else {
                live(ex, found);
            }
        } else {
            notFound(ex);
        }
    }

    private void sessionPage(HttpExchange ex, Found found) throws IOException {
        SessionRead read;
        try {
            read = SessionRead.of(found, engine);
        } catch (IOException e) {
            html(ex, 200, Layout.message("This log cannot be read", found.key().relative() + ": " + e.getMessage(),
                    true));
            return;
        }
        html(ex, 200, SessionPage.served(read, engine, read.recording()));
    }

    private void guardsPage(HttpExchange ex, String dir) throws IOException {
        SessionIndex.Snapshot snap = index.refresh();
        Map<GuardBook.Directory, Integer> dirs = GuardBook.directories(snap);
        GuardBook.Directory chosen = null;
        for (GuardBook.Directory d : dirs.keySet()) {
            if (d.id().equals(dir)) {
                chosen = d;
            }
        }
        if (chosen == null && dir != null) {
            notFound(ex);
            return;
        }
        if (chosen == null) {
            chosen = firstGuarded(snap, dirs);
        }
        GuardBook.Report report = chosen == null ? null : guards.report(snap, chosen);
        html(ex, 200, GuardsPage.render(dirs, report, index.roots(), engine.guardedDomains()));
    }

    /** The directory of the newest session of a domain that has guards, else the first directory. */
    private GuardBook.Directory firstGuarded(SessionIndex.Snapshot snap, Map<GuardBook.Directory, Integer> dirs) {
        var domains = engine.guardedDomains();
        for (var s : snap.newestFirst()) {
            if (s.domain() != null && domains.contains(s.domain())) {
                return new GuardBook.Directory(s.key().root(), s.key().directory());
            }
        }
        return dirs.isEmpty() ? null : dirs.keySet().iterator().next();
    }

    private void live(HttpExchange ex, Found found) throws IOException, InterruptedException {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", "text/event-stream; charset=utf-8");
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(200, -1);
            return;
        }
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            new LiveFeed(found, engine, () -> stopped).stream(out);
        }
    }

    private void notFound(HttpExchange ex) throws IOException {
        html(ex, 404, Layout.message("Not found", "There is no such page, or no such file among the logs and flows"
                + " the console reads.", true));
    }

    private static void html(HttpExchange ex, int status, String page) throws IOException {
        byte[] body = page.getBytes(StandardCharsets.UTF_8);
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", "text/html; charset=utf-8");
        h.set("Content-Security-Policy", Assets.servedPolicy());
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
        h.set("Cross-Origin-Opener-Policy", "same-origin");
        h.set("Cross-Origin-Resource-Policy", "same-origin");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }

    /** The request's address without the token parameter. */
    private static String withoutToken(URI uri) {
        String q = uri.getRawQuery();
        StringBuilder kept = new StringBuilder();
        if (q != null) {
            for (String pair : q.split("&")) {
                if (!pair.equals(Access.PARAM) && !pair.startsWith(Access.PARAM + "=")) {
                    kept.append(kept.isEmpty() ? "?" : "&").append(pair);
                }
            }
        }
        String p = uri.getRawPath();
        // Only a path of this server: never a redirect to another host.
        if (p == null || !p.startsWith("/") || p.startsWith("//")) {
            p = "/";
        }
        return p + kept;
    }
}
