package dev.stretto.proxy.upstream;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.ServerStderr;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.io.IoMessages;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.stretto.proxy.logging.Logger;

/**
 * A server run as a child process on stdio, as the API's {@code UpstreamSpec.Command} describes
 * it: its stdin and stdout are the session's pipes; its environment is the proxy's with the
 * command's variables added, its working directory and stderr the command's (by default the
 * proxy's).
 *
 * <p>When the session has a subreaper, the child's environment also holds its mark ({@link
 * ChildReaper#TREE_VARIABLE}), by which the processes it leaves behind are known as its own.
 *
 * <p>Threads and ownership: {@link #send} runs on the host's reader and {@link #endOfInput} on
 * the client pump, one after the other (in active mode both on the actor's server writer);
 * {@link #awaitEnd} runs as a fork of the session's scope and waits for the server's output
 * to end and for the server to exit. The server's stdout is read by an {@link OutputReader},
 * a daemon thread {@code stretto-server-stdout-<pid>} outside the scope: it hands each line to
 * the sink and ends at the end of the output, which comes once the server and every process
 * holding its stdout have ended (the session ends them all before it returns). Only a holder
 * the proxy cannot find (with no {@link ChildReaper}, a process the server detached) keeps it
 * blocked until that holder ends; it then hands on nothing more, the session being over.
 * {@link #abort} and {@link #stop} may come from any thread.
 *
 * <p>Ending. When the host closes its input, the child's stdin is closed. A child that then
 * does not exit (or one that closed its stdout but keeps running) gets the shutdown ladder:
 * after {@link ShutdownTimings#grace()} SIGTERM to the child and all its descendants, after
 * {@link ShutdownTimings#termGrace()} SIGKILL. Once the child has exited, what it wrote is
 * read for {@link #EXIT_GRACE} at most; then whatever is left of its tree (processes it
 * started that still run, holding its stdout or not) gets SIGTERM, and SIGKILL after {@link
 * ShutdownTimings#termGrace()}, so nothing the server started outlives the session, and a
 * process that keeps the server's stdout open cannot keep the session from ending with the
 * server's status. {@link #stop} ends the tree politely but promptly, {@link #abort} at once.
 */
public final class ChildProcessUpstream implements PipedUpstream {

    /** How long the server's output is still read after the server has exited. */
    static final Duration EXIT_GRACE = Duration.ofMillis(500);

    /** The most {@link #stop} waits between SIGTERM and SIGKILL. */
    static final Duration STOP_TERM_GRACE = Duration.ofSeconds(1);

    private static final java.util.regex.Pattern ERRNO = java.util.regex.Pattern.compile("error(?:=|: )(\\d+)");
    private final List<String> argv;
    private final Map<String, String> environment;
    private final Path directory;
    private final ServerStderr stderrChoice;
    private final String searchPath;
    private final ShutdownTimings timings;
    private final ChildReaper subreaper;
    private final AtomicBoolean ladderStarted = new AtomicBoolean();
    // Set once by start(), before any other method runs.
    private Process process;
    private ProcessTree tree;
    private OutputReader output;
    private StderrDrain stderr;
    // Client pump only.
    private OutputStream stdin;
    private ServerInput input;

    /**
     * A child that will run {@code argv}.
     *
     * @param argv        the program and its arguments
     * @param environment variables added to the environment the child inherits
     * @param directory   the child's working directory, or null for the proxy's own
     * @param stderr      where the child's stderr goes
     * @param searchPath the PATH the command is looked up on, named in the error when it is
     *                   not found; null when unknown
     * @param subreaper  how orphans the server leaves behind are found (inactive unless the
     *                   program made this JVM a child subreaper)
     */
    public ChildProcessUpstream(List<String> argv, Map<String, String> environment, Path directory,
                                ServerStderr stderr, String searchPath, ShutdownTimings timings,
                                ChildReaper subreaper) {
        this.argv = List.copyOf(argv);
        this.environment = Map.copyOf(environment);
        this.directory = directory;
        this.stderrChoice = stderr;
        this.searchPath = searchPath;
        this.timings = timings;
        this.subreaper = subreaper;
    }

    @Override
    public void start(ServerLineSink toHost, Executor work) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(stderrRedirect());
        if (!environment.isEmpty()) {
            pb.environment().putAll(environment);
        }
        Path dir = directory;
        if (dir != null) {
            if (!Files.isDirectory(dir)) {
                throw new UpstreamStartException("cannot start the server: its working directory " + dir
                        + (Files.exists(dir) ? " is not a directory" : " does not exist"), null);
            }
            pb.directory(dir.toFile());
        }
        ChildReaper.Server server;
        try {
            server = subreaper.start(pb);
        } catch (IOException e) {
            throw new UpstreamStartException(startFailure(argv.getFirst(), e), e);
        }
        process = server.process();
        if (stderrChoice instanceof ServerStderr.ToStream(OutputStream out)) {
            stderr = StderrDrain.start(process.getErrorStream(), out, "stretto-server-stderr-" + process.pid());
        }
        this.tree = new ProcessTree(server, subreaper);
        // Lines that follow one another at once go out in large writes (see send(Line, boolean)).
        this.stdin = new BufferedOutputStream(process.getOutputStream(), 64 * 1024);
        this.input = new ServerInput(stdin, e -> Logger.warn(
                "the server no longer reads its input; the host's messages are not delivered"));
        // A read that fails means the pipe broke under it (the child was destroyed): its output is over.
        this.output = OutputReader.start(process.getInputStream(), toHost, "stretto-server-stdout-" + process.pid());
    }

    // if/instanceof, not a pattern switch, whose bootstrap would cost start-up.
    private ProcessBuilder.Redirect stderrRedirect() throws UpstreamStartException {
        ServerStderr choice = stderrChoice;
        if (choice instanceof ServerStderr.Discard) {
            return ProcessBuilder.Redirect.DISCARD;
        }
        if (choice instanceof ServerStderr.ToStream) {
            return ProcessBuilder.Redirect.PIPE;
        }
        if (choice instanceof ServerStderr.AppendTo(Path file)) {
            // Opened here first, so that a file that cannot be is named as such, not as the program.
            try (OutputStream probe = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                return ProcessBuilder.Redirect.appendTo(file.toFile());
            } catch (IOException e) {
                throw new UpstreamStartException("cannot start the server: its stderr file " + file
                        + " cannot be opened: " + IoMessages.describe(e), e);
            }
        }
        return ProcessBuilder.Redirect.INHERIT;
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
    public ServerInput input() {
        return input;
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

    /**
     * Waits until the server's output has ended and the server has exited, whichever comes
     * first, and ends the rest of its tree (see the class comment); returns the server's status.
     */
    @Override
    public int awaitEnd() throws InterruptedException {
        try {
            CompletableFuture.anyOf(output.ended(), process.onExit()).get();
        } catch (ExecutionException cannotHappen) {
            // Neither ever completes exceptionally.
        }
        if (!output.ended().isDone()) {
            awaitRestOfOutput();
        } else if (process.isAlive()) {
            stopAfterGrace("its output closed");
        }
        int status = process.waitFor();
        tree.end(timings.termGrace());
        if (stderr != null && !stderr.awaitEnd(EXIT_GRACE)) {
            Logger.debug("the server's stderr is still open: a process the proxy cannot find holds it");
        }
        return status;
    }

    /**
     * The server has exited, its output has not ended. What it left in the pipe is read for
     * {@link #EXIT_GRACE}; then whatever is left of its tree is ended (a process it started may
     * hold the pipe), and the rest of the output is still handed on, as long as that goes on:
     * the wait ends when the host has taken nothing for {@link ShutdownTimings#hostStall()} (the
     * session then gives up the lines it did not take), or when nothing more is read although
     * the tree has ended (a holder the proxy cannot find).
     */
    private void awaitRestOfOutput() throws InterruptedException {
        if (awaitOutputEnd(EXIT_GRACE)) {
            return;
        }
        Logger.debug("the server exited but its output is still open; ending what is left of its tree");
        tree.end(timings.termGrace());
        long seen = output.handedOn();
        long lastProgress = System.nanoTime();
        while (!awaitOutputEnd(EXIT_GRACE)) {
            long now = output.handedOn();
            if (now != seen) {
                seen = now;
                lastProgress = System.nanoTime();
            } else if (!output.handingOn()) {
                Logger.warn("the server exited, but a process it started (and the proxy cannot find) still holds"
                        + " its output open; the session ends without it");
                return;
            } else if (System.nanoTime() - lastProgress >= timings.hostStall().toNanos()) {
                return;
            }
        }
    }

    private boolean awaitOutputEnd(Duration timeout) throws InterruptedException {
        try {
            output.ended().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException cannotHappen) {
            return true;
        }
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

    /**
     * Ends the server's tree politely but promptly: SIGTERM to all of it, SIGKILL to whatever is
     * still alive {@link #STOP_TERM_GRACE} (or the ladder's {@link ShutdownTimings#termGrace()},
     * if shorter) later, or at once when interrupted meanwhile.
     */
    @Override
    public void stop() {
        if (tree == null) {
            return;
        }
        Duration grace = timings.termGrace().compareTo(STOP_TERM_GRACE) < 0 ? timings.termGrace() : STOP_TERM_GRACE;
        try {
            tree.end(grace);
        } catch (InterruptedException e) {
            tree.kill();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void abort() {
        if (tree != null) {
            tree.abort();
        }
    }

    /** Whether the proxy ended the child (the ladder, {@link #stop}, {@link #abort}), or it finished by itself. */
    @Override
    public ServerEnd serverEnd() {
        return tree == null ? ServerEnd.FINISHED : tree.childEnd();
    }

    /** The child's process, for tests that look at its descendants. */
    ProcessHandle handle() {
        return process.toHandle();
    }
}
