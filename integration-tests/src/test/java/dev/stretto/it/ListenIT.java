package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto-proxy --listen} as hosts use it: the official TypeScript SDK's
 * StreamableHTTPClientTransport (integration-tests/ts-host) against the proxy in front of the
 * demo and of the reference server (server-everything) on stdio. What the host gets over HTTP
 * is what it gets when it starts the proxy on stdio; a stream the network drops is resumed; 200
 * hosts at once get a session and a child each; the proxy's own end and its refusals.
 */
class ListenIT {

    @TempDir
    Path tmp;

    private static final List<String> RETAIL_CALLS = List.of(
            "--call", "find_user_id_by_email", "--args", "{\"email\":\"c7@example.com\"}",
            "--call", "cancel_pending_order", "--args", "{\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}",
            "--call", "get_order_details", "--args", "{\"order_id\":\"#W7a\"}",
            "--allow-error");

    private static List<String> args(List<String> first, String... more) {
        List<String> out = new ArrayList<>(first);
        out.addAll(List.of(more));
        return out;
    }

    /** The server's answers in a session log, by id, as the server wrote them; and the proxy's own lines. */
    private static Map<String, String> answers(SessionLogFile log, String... skippedIds) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < log.entries().size(); i++) {
            JsonNode e = log.entries().get(i);
            JsonNode m = e.path("message");
            String from = e.path("from").asText();
            if ((from.equals("server") || from.equals("proxy")) && m.has("id") && !m.has("method")
                    && !List.of(skippedIds).contains(m.get("id").toString())) {
                out.put(from + " " + m.get("id"), log.messageText(i));
            }
        }
        return out;
    }

    private Path dir(String name) throws Exception {
        return Files.createDirectories(tmp.resolve(name));
    }

    @Test
    void theSdkHostGetsOverHttpWhatItGetsOverStdioFromTheGuardedDemo() throws Exception {
        Path stdioLogs = dir("stdio");
        Path httpLogs = dir("http");
        List<String> proxyArgs = List.of("--guards", "--domain", "retail");
        List<String> demo = List.of("--", Repo.bin("stretto-mcp-demo"), "--world", "retail");

        List<String> stdioCommand = new ArrayList<>(List.of("--", Repo.bin("stretto-proxy"), "--record",
                stdioLogs.toString()));
        stdioCommand.addAll(proxyArgs);
        stdioCommand.addAll(demo);
        List<String> overStdio = Listener.host(args(RETAIL_CALLS, stdioCommand.toArray(String[]::new)));

        List<String> listenArgs = new ArrayList<>(List.of("--record", httpLogs.toString()));
        listenArgs.addAll(proxyArgs);
        listenArgs.addAll(demo);
        List<String> overHttp;
        try (Listener listener = Listener.start(listenArgs.toArray(String[]::new))) {
            overHttp = Listener.host(args(RETAIL_CALLS, "--http", listener.url()));
            assertEquals(0, listener.terminate(), listener.proc().stderr());
            assertTrue(listener.proc().stderr().contains("stretto-proxy: refused cancel_pending_order"),
                    listener.proc().stderr());
        }
        assertEquals(overStdio, overHttp);
        assertTrue(overHttp.stream().anyMatch(l -> l.startsWith("result: ") && l.contains("isError\":true")),
                "the guards refused the early cancel: " + overHttp);

        SessionLogFile stdio = SessionLogFile.onlyIn(stdioLogs);
        SessionLogFile http = SessionLogFile.onlyIn(httpLogs);
        assertTrue(http.header().path("session").asText().matches("\\d{8}T\\d{6}\\.\\d{3}Z-\\d+-1"),
                http.header().toString());
        assertEquals(http.header().path("session").asText() + ".jsonl", http.path().getFileName().toString());
        assertEquals(answers(stdio), answers(http));
        assertEquals(stdio.indexesFrom("client").size(), http.indexesFrom("client").size());
    }

    @Test
    void theSdkHostGetsOverHttpWhatItGetsOverStdioFromTheReferenceServer() throws Exception {
        Path everything = HttpServers.referenceServer();
        List<String> calls = List.of(
                "--call", "echo", "--args", "{\"message\":\"h\\u00e9llo \\\"there\\\"\"}",
                "--call", "get-sum", "--args", "{\"a\":2,\"b\":3.5}",
                "--call", "trigger-long-running-operation", "--args", "{\"duration\":1,\"steps\":3}",
                "--call", "trigger-sampling-request", "--args", "{\"prompt\":\"hi\",\"maxTokens\":10}");
        Path stdioLogs = dir("stdio");
        Path httpLogs = dir("http");
        List<String> overStdio = Listener.host(args(calls, "--", Repo.bin("stretto-proxy"), "--record",
                stdioLogs.toString(), "--", everything.toString()));
        List<String> overHttp;
        try (Listener listener = Listener.start("--record", httpLogs.toString(), "--", everything.toString())) {
            overHttp = Listener.host(args(calls, "--http", listener.url()));
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }
        // What comes of the server's own accord (its roots/list, the tools it lists a moment after
        // initialization, its last progress beside the result) comes when it comes: the results are
        // what must be the same.
        assertEquals(results(overStdio), results(overHttp));
        assertTrue(overHttp.stream().filter(l -> l.startsWith("progress: ")).count() >= 2, overHttp.toString());
        assertTrue(overHttp.contains("answered: sampling/createMessage"), overHttp.toString());
        assertEquals(answers(SessionLogFile.onlyIn(stdioLogs), "1"), answers(SessionLogFile.onlyIn(httpLogs), "1"));
    }

    private static List<String> results(List<String> out) {
        return out.stream().filter(l -> l.startsWith("server: ") || l.startsWith("result: ") || l.startsWith("host: "))
                .toList();
    }

    @Test
    void aStreamTheNetworkDropsIsResumedFromItsLastEvent() throws Exception {
        Path everything = HttpServers.referenceServer();
        Path logs = dir("logs");
        try (Listener listener = Listener.start("--record", logs.toString(), "--", everything.toString());
             CuttingRelay relay = new CuttingRelay(URI.create(listener.url()).getPort(), "\"progress\":1,")) {
            List<String> out = Listener.host(List.of("--call", "trigger-long-running-operation", "--args",
                    "{\"duration\":2,\"steps\":4}", "--http", relay.url()));
            assertTrue(relay.hasCut(), "the relay dropped the call's stream");
            List<String> progress = out.stream().filter(l -> l.startsWith("progress: ")).toList();
            assertEquals(4, progress.size(), out.toString());
            for (int i = 0; i < 4; i++) {
                assertTrue(progress.get(i).contains("\"progress\":" + (i + 1) + ","), progress.toString());
            }
            assertTrue(out.stream().anyMatch(l -> l.startsWith("result: ") && l.contains("Steps: 4.")), out.toString());
            // The host came back with a GET naming the last event it had of the call's stream.
            assertTrue(relay.requestHeads().stream().anyMatch(h -> h.startsWith("GET ")
                    && h.toLowerCase(java.util.Locale.ROOT).matches("(?s).*\r\nlast-event-id: [1-9]\\d*-[1-9]\\d*\r\n.*")),
                    relay.requestHeads().toString());
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        long calls = log.entries().stream().filter(e -> e.path("from").asText().equals("client")
                && e.path("message").path("method").asText().equals("tools/call")).count();
        assertEquals(1, calls, "the call was made once; the resume replayed its events");
    }

    /**
     * The JDK's HTTP server closes a kept-alive connection right after its answer once 200 are
     * idle, and a host's next POST on it from its pool failed ("fetch failed" in Node): with
     * hundreds of hosts, calls were lost. Every connection kept alive must take a second request.
     */
    @Test
    void moreThanTwoHundredKeptAliveConnectionsEachTakeTheirNextRequest() throws Exception {
        try (Listener listener = Listener.start("--", "cat")) {
            URI url = URI.create(listener.url());
            List<java.net.Socket> sockets = new ArrayList<>();
            try {
                for (int round = 0; round < 2; round++) {
                    for (int i = 0; i < 260; i++) {
                        if (round == 0) {
                            sockets.add(new java.net.Socket(url.getHost(), url.getPort()));
                        }
                        java.net.Socket socket = sockets.get(i);
                        socket.setSoTimeout(30_000);
                        String head = "GET " + url.getRawPath() + " HTTP/1.1\r\nHost: " + url.getRawAuthority()
                                + "\r\nAccept: text/event-stream\r\n\r\n";
                        socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                        socket.getOutputStream().flush();
                        String status = answerStatus(socket.getInputStream());
                        assertTrue(status.startsWith("HTTP/1.1 400"), "connection " + i + ", request " + (round + 1)
                                + ": " + status);
                    }
                }
            } finally {
                for (java.net.Socket socket : sockets) {
                    socket.close();
                }
            }
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }
    }

    /** Reads one whole answer (its head and its Content-Length body); its status line, or "closed". */
    private static String answerStatus(java.io.InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return "closed after " + head.length() + " bytes of the answer's head";
            }
            head.append((char) b);
        }
        String text = head.toString();
        long length = 0;
        for (String line : text.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                length = Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        for (long read = 0; read < length; read++) {
            if (in.read() < 0) {
                return "closed in the answer's body";
            }
        }
        return text.substring(0, text.indexOf("\r\n"));
    }

    @Test
    void twoHundredHostsAtOnceGetASessionAndAChildEachWithEveryLogComplete() throws Exception {
        // A tiny sh server: 200 JVMs or Node servers would take gigabytes.
        Path server = tmp.resolve("tiny-mcp-server.sh");
        Files.copy(Repo.root().resolve("integration-tests/servers/tiny-mcp-server.sh"), server,
                StandardCopyOption.COPY_ATTRIBUTES);
        Path logs = dir("logs");
        try (Listener listener = Listener.start("--record", logs.toString(), "--listen-max-sessions", "200",
                "--", server.toString())) {
            List<String> command = List.of("node", Repo.root().resolve("integration-tests/ts-host/sessions.mjs")
                    .toString(), "--sessions", "200", "--call", "echo", "--url", listener.url());
            try (Proc hosts = Proc.start(command, null, Map.of())) {
                int status = hosts.waitFor();
                String out = new String(hosts.stdoutBytes(), StandardCharsets.UTF_8);
                assertEquals(0, status, out + hosts.stderr());
                assertEquals("sessions: 200 ok\n", out);
            }
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(logs)) {
            files = s.sorted().toList();
        }
        assertEquals(200, files.size());
        java.util.Set<String> hostSessions = new java.util.TreeSet<>();
        for (Path f : files) {
            SessionLogFile log = SessionLogFile.read(f);
            assertTrue(f.getFileName().toString().matches("\\d{8}T\\d{6}\\.\\d{3}Z-\\d+-\\d+\\.jsonl"), f.toString());
            List<String> methods = log.entries().stream().filter(e -> e.path("from").asText().equals("client"))
                    .map(e -> e.path("message").path("method").asText()).toList();
            assertEquals(List.of("initialize", "notifications/initialized", "tools/list", "tools/call"), methods,
                    f.toString());
            assertEquals(3, log.indexesFrom("server").size(), f.toString());
            String text = log.entries().getLast().path("message").at("/result/content/0/text").asText();
            assertTrue(text.matches("host \\d+"), log.lines().getLast());
            hostSessions.add(text);
        }
        assertEquals(200, hostSessions.size(), "each session had a host of its own");
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("")
                .contains(server.toString())), "no child outlives the proxy");
    }

    @Test
    void signalsEndEverySessionAndTheProxyExitsZero() throws Exception {
        Path logs = dir("logs");
        for (String signal : List.of("TERM", "INT")) {
            Path dir = Files.createDirectories(logs.resolve(signal));
            try (Listener listener = Listener.start("--record", dir.toString(), "--", Repo.bin("stretto-mcp-demo"))) {
                // A session left open when the signal comes.
                HttpServers.post(listener.url(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\","
                        + "\"version\":\"1\"}}}", Map.of());
                listener.proc().awaitStderr("recording to");
                listener.proc().signal(signal);
                assertEquals(0, listener.proc().waitFor(), listener.proc().stderr());
            }
            SessionLogFile log = SessionLogFile.onlyIn(dir);
            assertEquals("initialize", log.entries().getFirst().path("message").path("method").asText());
        }
    }

    @Test
    void aPortInUseIsAnExitOf125WithTheReason() throws Exception {
        try (Listener first = Listener.start("--", Repo.bin("stretto-mcp-demo"));
             Proc second = Proc.proxy(Map.of(), "--listen", first.url().substring("http://".length(),
                     first.url().length() - "/mcp".length()), "--", Repo.bin("stretto-mcp-demo"))) {
            assertEquals(125, second.waitFor());
            assertTrue(second.stderr().contains("stretto-proxy: cannot listen on 127.0.0.1:"
                    + URI.create(first.url()).getPort() + ": the address is in use"), second.stderr());
            assertEquals(0, first.terminate());
        }
    }

    @Test
    void withATokenFileOnlyHostsThatSendTheTokenGetIn() throws Exception {
        Path token = tmp.resolve("token");
        Files.writeString(token, "t0ken-" + System.nanoTime() + "\n");
        String value = Files.readString(token).strip();
        try (Listener listener = Listener.start("--listen-token-file", token.toString(), "--",
                Repo.bin("stretto-mcp-demo"))) {
            var refused = HttpServers.post(listener.url(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    + "\"params\":{}}", Map.of());
            assertEquals(401, refused.statusCode());
            assertFalse(refused.body().contains(value));
            List<String> out = Listener.host(List.of("--call", "lookup", "--args", "{\"text\":\"hi\"}",
                    "--header", "Authorization=Bearer " + value, "--http", listener.url()));
            assertTrue(out.contains("tools: lookup update"), out.toString());
            assertEquals(0, listener.terminate());
            assertFalse(listener.proc().stderr().contains(value), "the token is never said");
        }
    }

    @Test
    void inFrontOfAnHttpServerEachHostSessionGetsAnUpstreamSessionOfItsOwn() throws Exception {
        Path logs = dir("logs");
        String demoUrl;
        try (HttpServers.Demo demo = HttpServers.Demo.start();
             Listener listener = Listener.start("--record", logs.toString(), "--upstream", demo.url())) {
            demoUrl = demo.url();
            for (int i = 0; i < 2; i++) {
                List<String> out = Listener.host(List.of("--call", "lookup", "--args", "{\"text\":\"hi\"}", "--http",
                        listener.url()));
                assertTrue(out.stream().anyMatch(l -> l.startsWith("result: ") && l.contains("hi")), out.toString());
            }
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }
        try (Stream<Path> s = Files.list(logs)) {
            List<Path> files = s.toList();
            assertEquals(2, files.size());
            for (Path f : files) {
                SessionLogFile log = SessionLogFile.read(f);
                assertEquals(demoUrl, log.header().path("server_command").get(0).asText());
                assertEquals(1, log.entries().stream().filter(e -> e.path("message").path("method").asText()
                        .equals("tools/call")).count());
            }
        }
    }
}
