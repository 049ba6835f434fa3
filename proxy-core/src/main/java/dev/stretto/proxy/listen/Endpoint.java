package dev.stretto.proxy.listen;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.stretto.proxy.ListenConfig;
import dev.stretto.proxy.ListenEvents;
import dev.stretto.proxy.ListenSession;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.http.ErrorLines;
import dev.stretto.proxy.logging.Logger;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The MCP endpoint: each request checked ({@link Access}), then POST, GET and DELETE as the
 * Streamable HTTP transport has them (revision 2025-06-18, and 2025-11-25's priming events).
 * A POST of {@code initialize} without a session id starts a session; every other request
 * names its session in {@code Mcp-Session-Id} (400 without, 404 for one unknown or ended) and
 * may name the protocol version ({@code MCP-Protocol-Version}, 400 for one neither known nor
 * negotiated). Requests are answered on an event stream when the client accepts one (progress
 * and the server's requests come before the answer), else as one JSON answer; notifications
 * and responses get 202.
 */
final class Endpoint implements HttpHandler {

    /** The protocol revisions whose {@code MCP-Protocol-Version} the endpoint takes, besides the one negotiated. */
    static final List<String> VERSIONS = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

    /** The first revision whose event streams start with a priming event. */
    private static final String PRIMING_SINCE = "2025-11-25";

    private static final Pattern HOST_SESSION = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private final ListenConfig config;
    private final SessionRunner runner;
    private final SessionTable table;
    private final Access access;
    private final SessionNames names = new SessionNames();

    Endpoint(ListenConfig config, SessionRunner runner, SessionTable table, Access access) {
        this.config = config;
        this.runner = runner;
        this.table = table;
        this.access = access;
    }

    @Override
    public void handle(HttpExchange exchange) {
        Logger.runWith(config.messages(), () -> {
            try {
                serve(exchange);
            } catch (Refused r) {
                answer(exchange, r);
            } catch (IOException e) {
                Logger.debug("an HTTP exchange ended early: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                Logger.error("the listener failed on a request: {}", e);
                Logger.debug(e, "listener failure");
                answer(exchange, new Refused(500, "Internal Server Error: " + e));
            } finally {
                exchange.close();
            }
        });
    }

    private static void answer(HttpExchange exchange, Refused r) {
        try {
            if (r.status == 401) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            }
            if (r.status == 405) {
                exchange.getResponseHeaders().set("Allow", "GET, POST, DELETE");
            }
            Exchanges.refuse(exchange, r);
        } catch (IOException | RuntimeException e) {
            // Answered already (an event stream had begun), or the client has gone.
            Logger.debug("could not answer an HTTP request with {}: {}", r.status, e.getMessage());
        }
    }

    private void serve(HttpExchange exchange) throws IOException, InterruptedException, Refused {
        if (!exchange.getRequestURI().getRawPath().equals(config.path())) {
            throw new Refused(404, "Not Found: the MCP endpoint is " + config.path());
        }
        access.checkPlace(exchange);
        String origin = access.corsOrigin(exchange);
        if (origin != null) {
            exchange.getResponseHeaders().set("Access-Control-Allow-Origin", origin);
            exchange.getResponseHeaders().set("Vary", "Origin");
            exchange.getResponseHeaders().set("Access-Control-Expose-Headers", "Mcp-Session-Id");
        }
        String method = exchange.getRequestMethod();
        if (method.equals("OPTIONS")) {
            preflight(exchange);
            return;
        }
        if (!access.authorized(exchange)) {
            throw new Refused(401, "Unauthorized: this listener needs Authorization: Bearer <its token>");
        }
        if (table.isStopping()) {
            throw new Refused(503, "Service Unavailable: the proxy is shutting down");
        }
        switch (method) {
            case "POST" -> post(exchange);
            case "GET" -> get(exchange);
            case "DELETE" -> delete(exchange);
            default -> throw new Refused(405, "Method Not Allowed: the MCP endpoint takes GET, POST and DELETE");
        }
    }

    // A browser asks before it sends a request with MCP's headers; it sends no token with this.
    private static void preflight(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Access-Control-Allow-Methods", "GET, POST, DELETE");
        exchange.getResponseHeaders().set("Access-Control-Allow-Headers", "Accept, Authorization, Content-Type,"
                + " Last-Event-ID, Mcp-Session-Id, MCP-Protocol-Version, Stretto-Session");
        exchange.getResponseHeaders().set("Access-Control-Max-Age", "600");
        Exchanges.empty(exchange, 204);
    }

    private void post(HttpExchange exchange) throws IOException, InterruptedException, Refused {
        Exchanges.Accepts accepts = Exchanges.accepts(exchange);
        if (!accepts.json() && !accepts.sse()) {
            throw new Refused(406, "Not Acceptable: the client must accept application/json or text/event-stream");
        }
        if (!"application/json".equals(Exchanges.contentType(exchange))) {
            throw new Refused(415, "Unsupported Media Type: the body must be application/json");
        }
        byte[] body = Exchanges.body(exchange, config.limits().maxBodyBytes());
        Posted posted;
        try {
            posted = Posted.parse(body);
        } catch (Posted.NotJson e) {
            Exchanges.error(exchange, 400, ErrorLines.PARSE_ERROR, "Parse error: " + e.getMessage());
            return;
        } catch (Posted.NotMessage e) {
            Exchanges.error(exchange, 400, ErrorLines.INVALID_REQUEST, "Invalid Request: " + e.getMessage());
            return;
        }
        String sessionId = Exchanges.single(exchange, "Mcp-Session-Id");
        if (posted.isInitialize()) {
            if (sessionId != null) {
                throw table.get(sessionId) != null
                        ? new Refused(400, "Bad Request: the session is initialized already")
                        : notFound();
            }
            initialize(exchange, posted, accepts);
            return;
        }
        if (posted.messages().stream().anyMatch(Posted.Message::isInitialize)) {
            Exchanges.error(exchange, 400, ErrorLines.INVALID_REQUEST,
                    "Invalid Request: initialize is POSTed on its own, without a session id");
            return;
        }
        deliver(exchange, session(exchange, sessionId), posted, accepts);
    }

    private LiveSession session(HttpExchange exchange, String sessionId) throws Refused {
        if (sessionId == null) {
            throw new Refused(400, "Bad Request: Mcp-Session-Id header is required");
        }
        LiveSession session = table.get(sessionId);
        if (session == null) {
            throw notFound();
        }
        String version = Exchanges.single(exchange, "MCP-Protocol-Version");
        if (version != null && !VERSIONS.contains(version) && !version.equals(session.outbox.protocolVersion())) {
            throw new Refused(400, "Bad Request: unsupported protocol version " + Access.shown(version)
                    + " (supported: " + String.join(", ", VERSIONS) + ")");
        }
        return session;
    }

    private static Refused notFound() {
        return new Refused(404, "Not Found: no such session (it may have ended); initialize a new one");
    }

    private void initialize(HttpExchange exchange, Posted posted, Exchanges.Accepts accepts)
            throws IOException, InterruptedException, Refused {
        String hostSession = Exchanges.single(exchange, "Stretto-Session");
        if (hostSession != null && !HOST_SESSION.matcher(hostSession).matches()) {
            throw new Refused(400, "Bad Request: Stretto-Session must be 1 to 128 letters, digits, '.', '_' or '-',"
                    + " not starting with '.'");
        }
        if (!table.reserve()) {
            throw new Refused(503, table.isStopping() ? "Service Unavailable: the proxy is shutting down"
                    : "Service Unavailable: the listener serves " + table.max() + " sessions at once, the most it"
                    + " may; end one (DELETE) or try again later");
        }
        Instant started = config.clock().instant();
        ListenSession info = new ListenSession(names.next(started), names.newId(), hostSession, started);
        LiveSession live = new LiveSession(info, config.limits());
        try {
            ProxyConfig sessionConfig = config.sessions().configure(info);
            live.start(runner, sessionConfig, () -> {
                table.add(live);
                tell(events -> events.started(info));
            }, result -> {
                table.over(live);
                tell(events -> events.ended(info, result));
            });
        } catch (ProxyStartException e) {
            table.unreserve();
            Logger.error("session {} could not start: {}", info.name(), e.getMessage());
            tell(events -> events.refused(info, e));
            Exchanges.json(exchange, 502, ErrorLines.error(posted.messages().getFirst().id(),
                    ErrorLines.UPSTREAM_FAILED, e.getMessage()));
            return;
        } catch (RuntimeException e) {
            table.unreserve();
            throw e;
        }
        exchange.getResponseHeaders().set("Mcp-Session-Id", info.mcpSessionId());
        deliver(exchange, live, posted, accepts);
    }

    private interface Tell {
        void to(ListenEvents events);
    }

    private void tell(Tell call) {
        if (config.events() == null) {
            return;
        }
        try {
            call.to(config.events());
        } catch (RuntimeException e) {
            Logger.warn("the listener's events failed: {}", e.toString());
        }
    }

    // The messages go to the session's server; requests are answered as the client accepts.
    private void deliver(HttpExchange exchange, LiveSession session, Posted posted, Exchanges.Accepts accepts)
            throws IOException, InterruptedException, Refused {
        session.touch();
        exchange.getResponseHeaders().set("Mcp-Session-Id", session.info.mcpSessionId());
        List<Posted.Message> requests = posted.requests();
        if (requests.isEmpty()) {
            for (Posted.Message m : posted.messages()) {
                if (m.cancelled() != null) {
                    session.outbox.cancel(m.cancelled());
                }
                if (!session.send(m.line())) {
                    throw notFound();
                }
            }
            Exchanges.empty(exchange, 202);
            return;
        }
        boolean sse = accepts.sse();
        Outbox.Opened opened = session.outbox.open(requests, sse);
        try {
            for (Posted.Message m : posted.messages()) {
                if (m.cancelled() != null) {
                    session.outbox.cancel(m.cancelled());
                }
                // A session that ended meanwhile has answered the requests with an error already.
                if (!session.send(m.line())) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            if (!sse) {
                session.outbox.abandon(opened.stream());
            } else {
                session.outbox.detach(opened.attachment());
            }
            throw e;
        }
        if (sse) {
            String version = session.outbox.protocolVersion();
            boolean priming = version != null && version.compareTo(PRIMING_SINCE) >= 0;
            SseResponse.write(exchange, session.outbox, opened.attachment(),
                    priming ? opened.stream().number + "-0" : null);
            session.touch();
            return;
        }
        List<byte[]> answers;
        try {
            answers = session.outbox.awaitAnswers(opened.stream());
        } catch (InterruptedException e) {
            session.outbox.abandon(opened.stream());
            throw e;
        }
        session.touch();
        if (answers.isEmpty()) {
            Exchanges.empty(exchange, 202);
        } else if (!posted.batch()) {
            Exchanges.json(exchange, 200, answers.getFirst());
        } else {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write('[');
            for (int i = 0; i < answers.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(answers.get(i));
            }
            out.write(']');
            Exchanges.json(exchange, 200, out.toByteArray());
        }
    }

    private void get(HttpExchange exchange) throws IOException, InterruptedException, Refused {
        if (!Exchanges.accepts(exchange).sse()) {
            throw new Refused(406, "Not Acceptable: the client must accept text/event-stream");
        }
        LiveSession session = session(exchange, Exchanges.single(exchange, "Mcp-Session-Id"));
        session.touch();
        String lastEventId = Exchanges.single(exchange, "Last-Event-ID");
        Outbox.Attachment attachment = lastEventId == null ? session.outbox.attachStandalone()
                : session.outbox.resume(lastEventId.strip());
        String version = session.outbox.protocolVersion();
        boolean priming = lastEventId == null && version != null && version.compareTo(PRIMING_SINCE) >= 0;
        exchange.getResponseHeaders().set("Mcp-Session-Id", session.info.mcpSessionId());
        SseResponse.write(exchange, session.outbox, attachment, priming ? "0-" + attachment.cursor : null);
        session.touch();
    }

    private void delete(HttpExchange exchange) throws IOException, Refused {
        String sessionId = Exchanges.single(exchange, "Mcp-Session-Id");
        if (sessionId == null) {
            throw new Refused(400, "Bad Request: Mcp-Session-Id header is required");
        }
        session(exchange, sessionId);
        LiveSession session = table.remove(sessionId);
        if (session == null) {
            throw notFound();
        }
        Logger.debug("session {} ended by the host (DELETE)", session.info.name());
        session.close();
        Exchanges.empty(exchange, 200);
    }
}
