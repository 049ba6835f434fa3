package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.Subreaper;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code stretto-proxy} as a host starts it, run in this JVM ({@code ProxyMain.run}, the
 * command's own code from its arguments on) in front of the real {@code stretto-mcp-demo} as
 * its child process, driven by a host that replays the host's side of a recorded session: its
 * lines in the order the log has them, each request waiting for its answer as the recorded
 * agent did, each conversation line appended to the {@code --context} file before the line it
 * preceded. Where the recorded agent took half a second or more before a line (its "thinking"),
 * the replay takes as long, since the proxy groups calls into LLM turns by that time; shorter
 * gaps are not reproduced. What the proxy says on stderr is captured.
 */
public final class ProxyReplay {

    /** How long a replay waits for any one answer before it fails the test. */
    public static final long WAIT_S = 60;

    /** A gap the replay reproduces: the turn window is 500 ms. */
    private static final long THINKING_MS = 400;

    /**
     * What the session gave.
     *
     * @param status   the proxy's exit status
     * @param received every line the host received, in order
     * @param stderr   what the proxy said
     */
    public record Result(int status, List<String> received, String stderr) {
    }

    private ProxyReplay() {
    }

    /** The command that runs the demo with {@code args}, from the test class path. */
    public static List<String> demo(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-preview",
                "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                "dev.stretto.demo.DemoMain"));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * {@code stretto-proxy ARGS -- stretto-mcp-demo --world retail DEMO_ARGS}, replaying {@code log}.
     *
     * @param chat    the {@code --context} file the conversation lines go to (null: they are dropped)
     * @param env     the proxy's environment
     * @param proxy   the proxy's options
     * @param demo    the demo's options after {@code --world retail}
     */
    public static Result replay(SessionLog log, Path chat, Map<String, String> env, List<String> proxy,
                                String... demo) throws Exception {
        List<String> args = new ArrayList<>(proxy);
        args.add("--");
        List<String> demoArgs = new ArrayList<>(List.of("--world", "retail"));
        demoArgs.addAll(List.of(demo));
        args.addAll(demo(demoArgs.toArray(String[]::new)));
        Host host = new Host();
        PrintStream savedErr = System.err;
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            CompletableFuture<Integer> status = new CompletableFuture<>();
            Thread.ofVirtual().name("replayed-proxy").start(() -> {
                try {
                    status.complete(ProxyMain.run(args.toArray(String[]::new), env, host.in(), host.out(),
                            new PrintStream(OutputStream.nullOutputStream()), 1, new Subreaper()));
                } catch (Throwable t) {
                    status.completeExceptionally(t);
                }
            });
            long lastTMs = 0;
            for (LogEntry e : log.entries()) {
                long gap = e.tMs() - lastTMs;
                lastTMs = e.tMs();
                if (e.from() != Source.CLIENT && e.from() != Source.CONTEXT) {
                    continue;
                }
                if (gap >= THINKING_MS) {
                    // The recorded agent's thinking time, which decides how calls group into turns.
                    Thread.sleep(gap);
                }
                String line = json(e);
                if (e.from() == Source.CONTEXT) {
                    if (chat != null) {
                        Files.writeString(chat, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                    }
                    continue;
                }
                host.send(line);
                JsonNode m = CanonicalJson.parse(line);
                if (m.has("method") && m.hasNonNull("id")) {
                    host.awaitResponse(m.get("id"));
                }
            }
            host.close();
            return new Result(status.get(WAIT_S, TimeUnit.SECONDS), host.received(),
                    stderr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(savedErr);
            host.close();
        }
    }

    private static String json(LogEntry e) {
        if (e.payload() instanceof Payload.Message m) {
            return m.json();
        }
        throw new IllegalArgumentException("the replay sends JSON lines only: " + e);
    }

    /** The host's ends of the proxy's stdin and stdout. */
    private static final class Host {
        private static final byte[] EOF = new byte[0];
        private final BlockingQueue<byte[]> input = new LinkedBlockingQueue<>();
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> received = new ArrayList<>();

        void send(String line) {
            input.add((line + "\n").getBytes(StandardCharsets.UTF_8));
        }

        void close() {
            input.add(EOF);
        }

        /** Reads lines until the response with {@code id}. */
        void awaitResponse(JsonNode id) throws InterruptedException {
            while (true) {
                String line = lines.poll(WAIT_S, TimeUnit.SECONDS);
                if (line == null) {
                    fail("no answer to " + id + " within " + WAIT_S + " s; received " + received);
                }
                received.add(line);
                JsonNode m = CanonicalJson.parse(line);
                if (!m.has("method") && id.equals(m.get("id"))) {
                    return;
                }
            }
        }

        /** Every line received, those that came after the last answer waited for included. */
        List<String> received() {
            List<String> all = new ArrayList<>(received);
            lines.drainTo(all);
            return all;
        }

        InputStream in() {
            return new InputStream() {
                private byte[] chunk = new byte[0];
                private int pos;
                private boolean ended;

                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (ended) {
                        return -1;
                    }
                    while (pos == chunk.length) {
                        try {
                            chunk = input.take();
                        } catch (InterruptedException e) {
                            throw new IOException(e);
                        }
                        pos = 0;
                        if (chunk == EOF) {
                            ended = true;
                            return -1;
                        }
                    }
                    int n = Math.min(len, chunk.length - pos);
                    System.arraycopy(chunk, pos, b, off, n);
                    pos += n;
                    return n;
                }
            };
        }

        OutputStream out() {
            return new OutputStream() {
                private final ByteArrayOutputStream line = new ByteArrayOutputStream();

                @Override
                public void write(int b) {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public synchronized void write(byte[] b, int off, int len) {
                    for (int i = off; i < off + len; i++) {
                        if (b[i] == '\n') {
                            lines.add(line.toString(StandardCharsets.UTF_8));
                            line.reset();
                        } else {
                            line.write(b[i]);
                        }
                    }
                }
            };
        }
    }
}
