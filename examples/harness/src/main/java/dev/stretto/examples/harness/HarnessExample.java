package dev.stretto.examples.harness;

import dev.stretto.demo.DemoMain;
import dev.stretto.proxy.MemoryRecording;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.SessionListener;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.Source;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A Java agent harness that runs MCP sessions in its own JVM with proxy-core, as docs/library.md
 * describes (its section on servers in the same JVM points here): each session has its MCP
 * server in process (stretto-mcp-demo on two pipes), an "agent" that initializes and calls one
 * tool, the proxy between them, a listener that watches every line, and a recording in memory
 * that becomes an Episode. The sessions run
 * at once, each on a virtual thread. Run it with {@code --enable-preview}.
 */
public final class HarnessExample {

    /**
     * What one session told the harness.
     *
     * @param result  what {@code Proxy.run} returned
     * @param watched each line the listener saw: {@code t_ms from line}
     * @param episode the session's recording as an Episode
     */
    public record SessionReport(SessionResult result, List<String> watched, Episode episode) {
    }

    private HarnessExample() {
    }

    /** Runs {@code args[0]} sessions (default 4) and prints a line for each. */
    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        for (SessionReport r : runSessions(sessions)) {
            System.out.println(describe(r));
        }
    }

    /** A line about one session. */
    static String describe(SessionReport r) {
        SessionResult result = r.result();
        long calls = r.episode().events().stream().filter(e -> e instanceof Event.ToolResult).count();
        return result.sessionId() + ": exit " + result.exitStatus() + " (" + result.endReason() + "), "
                + result.lines().fromClient() + " lines from the agent, " + result.lines().fromServer()
                + " from the server, " + calls + " tool result(s), " + r.watched().size() + " lines watched";
    }

    /** Runs {@code sessions} sessions at once and returns what each told. */
    public static List<SessionReport> runSessions(int sessions) throws Exception {
        List<Future<SessionReport>> running = new ArrayList<>();
        try (ExecutorService harness = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < sessions; i++) {
                int n = i;
                running.add(harness.submit(() -> runSession(n)));
            }
            List<SessionReport> reports = new ArrayList<>();
            for (Future<SessionReport> f : running) {
                reports.add(f.get());
            }
            return reports;
        }
    }

    /** One session, from start to end. */
    static SessionReport runSession(int n) throws Exception {
        // The MCP server, in this JVM: stretto-mcp-demo between two pipes. When it is done (its
        // input ended), its output is closed, which is how the proxy learns it has ended.
        Pipe toServer = Pipe.open();
        Pipe fromServer = Pipe.open();
        Thread.ofVirtual().name("demo-server-" + n).start(() -> {
            try (InputStream in = Channels.newInputStream(toServer.source());
                 OutputStream out = Channels.newOutputStream(fromServer.sink())) {
                DemoMain.run(List.of(), in, out, System.err);
            } catch (IOException e) {
                System.err.println("demo server " + n + ": " + e.getMessage());
            }
        });

        // The agent's side of the session: what it writes the proxy reads, and the other way round.
        Pipe agentToProxy = Pipe.open();
        Pipe proxyToAgent = Pipe.open();
        Thread agent = Thread.ofVirtual().name("agent-" + n).start(() -> talk(n, agentToProxy, proxyToAgent));

        MemoryRecording recording = new MemoryRecording();
        List<String> watched = new CopyOnWriteArrayList<>();
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Streams.of("demo",
                        Channels.newInputStream(fromServer.source()), Channels.newOutputStream(toServer.sink())))
                .domain("demo")
                .recordTo(recording)
                .listener(new SessionListener() {
                    @Override
                    public void line(long tMs, Source from, byte[] line) {
                        watched.add(tMs + " " + from.wireName() + " " + new String(line, StandardCharsets.UTF_8));
                    }
                })
                .build();
        SessionResult result;
        // Proxy.run closes neither of the agent's streams: the harness does, once it returns.
        try (InputStream fromAgent = Channels.newInputStream(agentToProxy.source());
             OutputStream toAgent = Channels.newOutputStream(proxyToAgent.sink())) {
            result = Proxy.run(config, fromAgent, toAgent);
        }
        agent.join();
        return new SessionReport(result, List.copyOf(watched), Episode.of(recording.sessionLog()));
    }

    // The agent: initialize, then one tool call, each waiting for its answer; then it ends the session.
    private static void talk(int n, Pipe toProxy, Pipe fromProxy) {
        try (OutputStream out = Channels.newOutputStream(toProxy.sink());
             BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(fromProxy.source()),
                     StandardCharsets.UTF_8))) {
            send(out, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"harness\",\"version\":\"1\"}}}");
            in.readLine();
            send(out, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(out, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                    + "\"arguments\":{\"text\":\"order " + n + "\"}}}");
            in.readLine();
        } catch (IOException e) {
            throw new IllegalStateException("agent " + n + ": " + e.getMessage(), e);
        }
    }

    private static void send(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
