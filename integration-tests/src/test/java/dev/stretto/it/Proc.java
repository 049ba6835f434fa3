package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real child process under test: its stdout is collected as raw bytes and as lines,
 * its stderr as text, each by its own thread, so a test waits on what the process
 * writes instead of sleeping.
 */
final class Proc implements AutoCloseable {
    static final long WAIT_SECONDS = 60;

    private final Process process;
    private final ByteArrayOutputStream stdoutBytes = new ByteArrayOutputStream();
    private final BlockingQueue<String> stdoutLines = new LinkedBlockingQueue<>();
    private final ByteArrayOutputStream stderrBytes = new ByteArrayOutputStream();
    private final CompletableFuture<Void> stdoutDone = new CompletableFuture<>();
    private final CompletableFuture<Void> stderrDone = new CompletableFuture<>();

    private Proc(Process process, boolean readStdout) {
        this.process = process;
        if (readStdout) {
            Thread.ofVirtual().name("it-stdout").start(() -> collect(process.getInputStream(), stdoutBytes, stdoutLines, stdoutDone));
        } else {
            stdoutDone.complete(null);
        }
        Thread.ofVirtual().name("it-stderr").start(() -> collect(process.getErrorStream(), stderrBytes, null, stderrDone));
    }

    static Proc start(List<String> command) throws IOException {
        return start(command, null, Map.of());
    }

    static Proc start(List<String> command, Path dir, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        pb.environment().putAll(env);
        return new Proc(pb.start(), true);
    }

    /**
     * bin/stretto-proxy with {@code args} whose stdout nobody reads: a host that stopped
     * reading. The pipe stays open until the process ends.
     */
    static Proc proxyNotRead(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto-proxy")));
        command.addAll(List.of(args));
        return new Proc(new ProcessBuilder(command).start(), false);
    }

    /** {@code command} with exactly the environment {@code env}, nothing inherited. */
    static Proc startWithOnly(List<String> command, Path dir, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        return new Proc(pb.start(), true);
    }

    /** bin/stretto-proxy with {@code args}, in the test's directory, with {@code env} added. */
    static Proc proxy(Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto-proxy")));
        command.addAll(List.of(args));
        return start(command, null, env);
    }

    private static void collect(InputStream in, ByteArrayOutputStream all, BlockingQueue<String> lines,
                                CompletableFuture<Void> done) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (all) {
                    all.write(buf, 0, n);
                    all.notifyAll();
                }
                if (lines != null) {
                    for (int i = 0; i < n; i++) {
                        if (buf[i] == '\n') {
                            lines.add(line.toString(StandardCharsets.UTF_8));
                            line.reset();
                        } else {
                            line.write(buf[i]);
                        }
                    }
                }
            }
        } catch (IOException e) {
            // The process went away; what was read is kept.
        } finally {
            done.complete(null);
        }
    }

    OutputStream stdin() {
        return process.getOutputStream();
    }

    void send(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    void closeStdin() throws IOException {
        process.getOutputStream().close();
    }

    /** The next stdout line, failing the test if none comes in time. */
    String nextLine() throws InterruptedException {
        String line = stdoutLines.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
            fail("no line on stdout within " + WAIT_SECONDS + " s; stderr:\n" + stderr());
        }
        return line;
    }

    List<String> nextLines(int n) throws InterruptedException {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(nextLine());
        }
        return out;
    }

    /** Waits for the process to exit (failing loudly if it does not) and returns its status. */
    int waitFor() throws Exception {
        if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
            fail("process did not exit within " + WAIT_SECONDS + " s; stderr:\n" + stderr());
        }
        stdoutDone.get(WAIT_SECONDS, TimeUnit.SECONDS);
        stderrDone.get(WAIT_SECONDS, TimeUnit.SECONDS);
        return process.exitValue();
    }

    boolean waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    byte[] stdoutBytes() {
        synchronized (stdoutBytes) {
            return stdoutBytes.toByteArray();
        }
    }

    String stderr() {
        synchronized (stderrBytes) {
            return stderrBytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits until stderr contains {@code text}, failing the test if it does not in time. */
    void awaitStderr(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        synchronized (stderrBytes) {
            while (!stderrBytes.toString(StandardCharsets.UTF_8).contains(text)) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || stderrDone.isDone()) {
                    fail("stderr did not say \"" + text + "\" within " + WAIT_SECONDS + " s; stderr:\n" + stderr());
                }
                TimeUnit.NANOSECONDS.timedWait(stderrBytes, left);
            }
        }
    }

    /**
     * Waits until stderr has {@code nth} lines (from 1) that {@code wanted} accepts, failing the
     * test if it does not in time; returns the last of them.
     */
    String awaitStderrLine(java.util.function.Predicate<String> wanted, int nth) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        synchronized (stderrBytes) {
            while (true) {
                List<String> found = stderrBytes.toString(StandardCharsets.UTF_8).lines().filter(wanted).toList();
                if (found.size() >= nth) {
                    return found.get(nth - 1);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || stderrDone.isDone()) {
                    fail("stderr did not have " + nth + " such lines within " + WAIT_SECONDS + " s; stderr:\n" + stderr());
                }
                TimeUnit.NANOSECONDS.timedWait(stderrBytes, left);
            }
        }
    }

    /** Everything on stdout so far, as text. */
    String stdout() {
        return new String(stdoutBytes(), StandardCharsets.UTF_8);
    }

    Process process() {
        return process;
    }

    /** Sends the process signal {@code name} (TERM, INT, HUP, ...) as {@code kill -NAME} does. */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            fail("kill -" + name + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
