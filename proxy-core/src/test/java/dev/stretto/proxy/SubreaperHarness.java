package dev.stretto.proxy;

import static dev.stretto.proxy.testing.Processes.running;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Java harness in a JVM of its own ({@link SubreaperTest} starts it): it makes its JVM a child
 * subreaper, starts a process of its own ({@code sleep 120}) and runs sessions side by side,
 * each with a server that detaches a process from itself (re-parented to this JVM), and has a
 * process of its own leave one behind as well. It ends the first session, then the second,
 * interrupts a third, and prints what it saw, one {@code name=value} a line.
 */
public final class SubreaperHarness {

    /**
     * A server that says its pid, then that of {@code sleep 300}, started by a subshell that
     * exits at once (so sleep is re-parented), and then echoes.
     */
    private static final String DETACHES = "echo $$; (sleep 300 & echo $!); exec cat";

    private SubreaperHarness() {
    }

    /**
     * One session running on a thread of its own, with the pids of its server and of the process
     * the server detached. {@code atThrow} says, the moment {@code Proxy.run} throws, whether the
     * JDK calls either alive.
     */
    private record Open(Thread runner, OpenInput in, CompletableFuture<SessionResult> result,
                        CompletableFuture<String> atThrow, long server, long orphan) {

        static Open start(Subreaper subreaper) throws InterruptedException {
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", DETACHES))
                    .subreaper(subreaper).build();
            OpenInput in = new OpenInput(new byte[0]);
            LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
            LineCollector out = new LineCollector(lines);
            CompletableFuture<SessionResult> result = new CompletableFuture<>();
            CompletableFuture<String> atThrow = new CompletableFuture<>();
            long[] pids = new long[2];
            Thread runner = Thread.ofPlatform().start(() -> {
                try {
                    result.complete(Proxy.run(config, in, out));
                } catch (InterruptedException e) {
                    atThrow.complete(alive(pids[0]) + "," + alive(pids[1]));
                    result.completeExceptionally(e);
                } catch (Exception e) {
                    result.completeExceptionally(e);
                }
            });
            pids[0] = pid(lines);
            pids[1] = pid(lines);
            return new Open(runner, in, result, atThrow, pids[0], pids[1]);
        }

        private static long pid(LinkedBlockingQueue<String> lines) throws InterruptedException {
            String pid = lines.poll(30, TimeUnit.SECONDS);
            if (pid == null) {
                throw new IllegalStateException("the server said no pid");
            }
            return Long.parseLong(pid.strip());
        }

        private static boolean alive(long pid) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }

        SessionResult end() throws Exception {
            in.close();
            return result.get(30, TimeUnit.SECONDS);
        }

        String interrupt() throws Exception {
            runner.interrupt();
            try {
                return atThrow.get(30, TimeUnit.SECONDS);
            } finally {
                in.close();
            }
        }
    }

    /** Runs the harness; prints {@code subreaper=false} and nothing else where there is no subreaper. */
    public static void main(String[] args) throws Exception {
        Subreaper subreaper = new Subreaper();
        boolean enabled = subreaper.enable();
        say("subreaper", enabled);
        if (!enabled) {
            return;
        }
        Process own = new ProcessBuilder("sleep", "120").start();
        // A process of the harness's own that leaves one behind, re-parented to this JVM too.
        Process leaves = new ProcessBuilder("sh", "-c", "(sleep 4 > /dev/null & echo $!)").start();
        long left = Long.parseLong(new String(leaves.getInputStream().readAllBytes()).strip());
        try {
            Open first = Open.start(subreaper);
            Open second = Open.start(subreaper);
            say("first.status", first.end().exitStatus());
            say("first.orphan.running", running(first.orphan()));
            say("second.orphan.running", running(second.orphan()));
            say("own.alive", own.isAlive());
            say("own.orphan.running", running(left));
            say("second.status", second.end().exitStatus());
            say("second.orphan.running", running(second.orphan()));
            // Interrupted: when Proxy.run throws, both are gone, reaped (the orphan by the session).
            say("third.interrupted.server.alive,orphan.alive", Open.start(subreaper).interrupt());
            subreaper.reapOrphans();
            say("own.alive", own.isAlive());
            // Once it has exited, nobody but the subreaper collects it: no zombie stays.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (ProcessHandle.of(left).isPresent() && System.nanoTime() < deadline) {
                subreaper.reapOrphans();
                ProcessHandle.of(left).ifPresent(h -> h.onExit().completeOnTimeout(h, 100, TimeUnit.MILLISECONDS).join());
            }
            say("own.orphan.collected", ProcessHandle.of(left).isEmpty());
            own.destroy();
            // The JDK collects the status of the process it started: nobody else may take it.
            say("own.status", own.waitFor(30, TimeUnit.SECONDS) ? own.exitValue() : "still running");
        } finally {
            own.destroyForcibly();
        }
    }

    private static void say(String name, Object value) {
        System.out.println(name + "=" + value);
    }
}
