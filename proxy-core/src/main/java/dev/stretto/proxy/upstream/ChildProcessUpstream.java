package dev.stretto.proxy.upstream;

import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.tinylog.Logger;

/**
 * A server run as a child process on stdio. It inherits the proxy's environment, working
 * directory and stderr; its stdin and stdout are the session's pipes.
 *
 * <p>Threads and ownership: {@link #send} and {@link #endOfInput} run on the client pump;
 * {@link #awaitEnd} is the upstream pump, which reads the child's stdout and hands each line
 * to the sink. {@link #abort} may come from any thread.
 *
 * <p>Ending. When the host closes its input, the child's stdin is closed. A child that then
 * does not exit (or one that closed its stdout but keeps running) gets the shutdown ladder:
 * after {@link ShutdownTimings#grace()} SIGTERM to the child and all its descendants, after
 * {@link ShutdownTimings#termGrace()} SIGKILL, so nothing the server started outlives the
 * session. {@link #abort} kills the whole tree at once.
 */
public final class ChildProcessUpstream implements Upstream {
    private static final java.util.regex.Pattern ERRNO = java.util.regex.Pattern.compile("error(?:=|: )(\\d+)");
    private final List<String> argv;
    private final String searchPath;
    private final ShutdownTimings timings;
    private final AtomicBoolean ladderStarted = new AtomicBoolean();
    private final AtomicBoolean inputBroken = new AtomicBoolean();
    // Set once by start(), before any other method runs.
    private Process process;
    private ProcessTree tree;
    private ServerLineSink toHost;
    // Client pump only.
    private OutputStream stdin;

    /**
     * A child that will run {@code argv}.
     *
     * @param searchPath the PATH the command is looked up on, named in the error when it is
     *                   not found; null when unknown
     */
    public ChildProcessUpstream(List<String> argv, String searchPath, ShutdownTimings timings) {
        this.argv = List.copyOf(argv);
        this.searchPath = searchPath;
        this.timings = timings;
    }

    @Override
    public void start(ServerLineSink toHost) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UpstreamStartException(startFailure(argv.getFirst(), e), e);
        }
        this.toHost = toHost;
        this.tree = new ProcessTree(process.toHandle());
        this.stdin = process.getOutputStream();
    }

    /** The message for a child that could not be started; names the command and the PATH searched. */
    String startFailure(String command, IOException e) {
        String m = String.valueOf(e.getMessage());
        boolean isPath = command.contains("/");
        // The JDK's wording has varied ("error=2, ..." before 25, "error: 2 (...)" since).
        java.util.regex.Matcher errno = ERRNO.matcher(m);
        int code = errno.find() ? Integer.parseInt(errno.group(1)) : -1;
        if (code == 2) {
            return isPath
                    ? "cannot start the server: no such file: " + command
                    : "cannot start the server: command not found: " + command + " (searched PATH="
                            + (searchPath == null ? "<unset>" : searchPath) + ")";
        }
        if (code == 13) {
            return "cannot start the server: " + command + " is not executable (permission denied)";
        }
        int paren = m.indexOf('(');
        String reason = paren >= 0 && m.indexOf(')', paren) > paren ? m.substring(paren + 1, m.indexOf(')', paren)) : m;
        return "cannot start the server " + command + ": " + reason.strip();
    }

    @Override
    public void send(byte[] line, boolean newline) {
        if (inputBroken.get()) {
            return;
        }
        try {
            stdin.write(line);
            if (newline) {
                stdin.write('\n');
            }
            stdin.flush();
        } catch (IOException e) {
            // The server closed its stdin or exited: what it can no longer read is dropped,
            // and the session ends when its output does.
            if (inputBroken.compareAndSet(false, true)) {
                Logger.warn("the server no longer reads its input; the host's messages are not delivered");
            }
        }
    }

    @Override
    public void endOfInput() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // Already broken: the server has gone or closed its end; the ladder still applies.
        }
        stopAfterGrace("its input closed");
    }

    /** Forwards the child's stdout to the sink until it ends, then waits for the child's status. */
    @Override
    public int awaitEnd() throws InterruptedException {
        InputStream out = process.getInputStream();
        LineReader reader = new LineReader(out);
        try {
            Line line;
            while ((line = reader.next()) != null) {
                toHost.line(line.bytes(), line.terminated());
            }
        } catch (IOException e) {
            // The pipe broke under the read (the child was destroyed): its output is over.
            Logger.debug("server output ended: {}", e.getMessage());
        }
        if (!process.waitFor(0, TimeUnit.MILLISECONDS)) {
            stopAfterGrace("its output closed");
        }
        return process.waitFor();
    }

    // The first caller runs the ladder; a later one returns at once (the other keeps waiting
    // for the child in awaitEnd).
    private void stopAfterGrace(String why) throws InterruptedException {
        if (process.waitFor(timings.grace().toNanos(), TimeUnit.NANOSECONDS)
                || !ladderStarted.compareAndSet(false, true)) {
            return;
        }
        Logger.warn("the server did not exit within {} after {}; sending it SIGTERM", seconds(timings.grace()), why);
        tree.terminate();
        if (tree.awaitAllExited(timings.termGrace())) {
            return;
        }
        Logger.warn("the server did not exit within {} after SIGTERM; sending SIGKILL", seconds(timings.termGrace()));
        tree.kill();
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    @Override
    public void abort() {
        if (tree != null && tree.anyAlive()) {
            tree.kill();
        }
    }

    /** The child's process, for tests that look at its descendants. */
    ProcessHandle handle() {
        return process.toHandle();
    }
}
