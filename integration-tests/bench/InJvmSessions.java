// The in-JVM half of the benchmark (bin/bench): sessions run with proxy-core inside this JVM,
// as a Java agent harness runs them, each on a virtual thread.
//
//   sessions/s  sessions started, used and ended per second, 100 at a time: initialize and one
//               tools/call against stretto-mcp-demo in this JVM (UpstreamSpec.Streams over
//               pipes), or one line echoed by a cat child (UpstreamSpec.Command)
//   memory      what one open session costs: N sessions held open at once (initialized, then
//               idle), heap in use after a GC and the JVM's resident set (for cat, the children's
//               too), the JVM's platform threads and open file descriptors, each minus the same
//               measured before, divided by N
//   reapers     for cat: the JDK's "process reaper" threads (one waits for each child) alive
//               once the N sessions have ended, and how long until none is (the JDK's pool
//               keeps an idle one about 60 s); with --quick, not waited for

import dev.stretto.demo.DemoMain;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.StderrMessages;
import dev.stretto.proxy.UpstreamSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

final class InJvmSessions {
    static final int AT_ONCE = 100;

    /** A kind of server: how to start one for a session, and the agent's request and what its answer holds. */
    enum Server {
        IN_PROCESS_DEMO("demo server in process",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\",\"arguments\":{\"text\":\"x\"}}}",
                "\"result\""),
        CAT_CHILD("cat as a child process", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", "\"ping\"");

        final String label;
        final String request;
        final String answerHolds;

        Server(String label, String request, String answerHolds) {
            this.label = label;
            this.request = request;
            this.answerHolds = answerHolds;
        }

        UpstreamSpec spec() throws IOException {
            if (this == CAT_CHILD) {
                return UpstreamSpec.Command.of("cat");
            }
            Pipe toServer = Pipe.open();
            Pipe fromServer = Pipe.open();
            PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
            Thread.ofVirtual().start(() -> {
                try (InputStream in = Channels.newInputStream(toServer.source());
                     OutputStream out = Channels.newOutputStream(fromServer.sink())) {
                    DemoMain.run(List.of(), in, out, quiet);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            return UpstreamSpec.Streams.of("demo", Channels.newInputStream(fromServer.source()),
                    Channels.newOutputStream(toServer.sink()));
        }
    }

    /**
     * What one open session costs, each figure per session: heap and resident KB, the
     * session's own platform threads, the JDK's reaper threads waiting for a child, and file
     * descriptors.
     */
    record Costs(double heapKb, double rssKb, double platformThreads, double reaperThreads, double fds) {
    }

    /** The JDK's reaper threads left once the sessions ended, and after how many seconds they were gone (-1: not waited for). */
    record Reapers(long left, long goneAfterSeconds) {
    }

    record Figures(Server server, double sessionsPerSecond, Costs costs, Reapers reapers) {
    }

    static void run(int sessions, int open, boolean awaitReapers) throws Exception {
        List<Figures> figures = new ArrayList<>();
        for (Server server : Server.values()) {
            throughput(server, Math.max(1, sessions / 10)); // warm-up
            double perSecond = throughput(server, sessions);
            Costs costs = costs(server, open);
            Reapers reapers = server == Server.CAT_CHILD ? reapers(awaitReapers) : null;
            figures.add(new Figures(server, perSecond, costs, reapers));
            System.err.printf("in-JVM sessions with the %s done%n", server.label);
        }
        System.out.printf(Locale.ROOT, "in-JVM sessions: %d sessions, %d at a time; %d held open for the costs%n",
                sessions, AT_ONCE, open);
        System.out.printf(Locale.ROOT, "%-28s %11s %9s %9s %12s %13s %8s  %s%n", "server", "sessions/s",
                "heap KB", "RSS KB", "own threads", "JDK reapers", "fds", "reapers once ended");
        for (Figures f : figures) {
            Reapers r = f.reapers();
            System.out.printf(Locale.ROOT, "%-28s %11.0f %9.1f %9.1f %12.2f %13.2f %8.2f  %s%n", f.server().label,
                    f.sessionsPerSecond(), f.costs().heapKb(), f.costs().rssKb(), f.costs().platformThreads(),
                    f.costs().reaperThreads(), f.costs().fds(), r == null ? "-" : r.left() + " alive, "
                            + (r.goneAfterSeconds() < 0 ? "not waited for" : "gone after " + r.goneAfterSeconds() + " s"));
        }
        System.out.println("(each figure per open session; threads are platform threads, the JDK's reapers apart)");
    }

    /** Sessions per second, AT_ONCE of them at a time. */
    static double throughput(Server server, int sessions) throws Exception {
        Semaphore slots = new Semaphore(AT_ONCE);
        List<Future<?>> done = new ArrayList<>();
        long t0 = System.nanoTime();
        try (ExecutorService harness = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < sessions; i++) {
                slots.acquire();
                done.add(harness.submit(() -> {
                    try {
                        session(server, null);
                    } finally {
                        slots.release();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        return sessions / ((System.nanoTime() - t0) / 1e9);
    }

    /** What one open session costs, {@code open} of them held open at once. */
    static Costs costs(Server server, int open) throws Exception {
        long heapBefore = heapAfterGc();
        long rssBefore = rssKb(server == Server.CAT_CHILD);
        // Platform threads only: the MXBean does not count virtual ones. The JDK's reaper threads
        // are counted apart, as an idle one (of the sessions before) is taken again.
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        long reapersBefore = reaperThreads();
        long fdsBefore = openFds();
        CountDownLatch allOpen = new CountDownLatch(open);
        CountDownLatch release = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        long heapOpen;
        long rssOpen;
        int threadsOpen;
        long reapersOpen;
        long fdsOpen;
        try (ExecutorService harness = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < open; i++) {
                done.add(harness.submit(() -> {
                    session(server, new CountDownLatch[] {allOpen, release});
                    return null;
                }));
            }
            if (!allOpen.await(5, TimeUnit.MINUTES)) {
                for (Future<?> f : done) {
                    if (f.state() == Future.State.FAILED) {
                        throw new IllegalStateException("a session failed", f.exceptionNow());
                    }
                }
                throw new IllegalStateException(allOpen.getCount() + " sessions were not open after 5 minutes");
            }
            heapOpen = heapAfterGc();
            rssOpen = rssKb(server == Server.CAT_CHILD);
            threadsOpen = ManagementFactory.getThreadMXBean().getThreadCount();
            reapersOpen = reaperThreads();
            fdsOpen = openFds();
            release.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
        long waiting = server == Server.CAT_CHILD ? reapersOpen : 0;
        return new Costs((heapOpen - heapBefore) / 1024.0 / open, (double) (rssOpen - rssBefore) / open,
                (double) (threadsOpen - threadsBefore - (reapersOpen - reapersBefore)) / open,
                (double) waiting / open, (double) (fdsOpen - fdsBefore) / open);
    }

    /**
     * The JDK's reaper threads left now that the sessions have ended (the benchmark's JVM starts
     * no other processes), and, with {@code await}, how many seconds until none is left (looked
     * at every second, for two minutes at most).
     */
    static Reapers reapers(boolean await) throws InterruptedException {
        long left = reaperThreads();
        if (!await) {
            return new Reapers(left, -1);
        }
        long t0 = System.nanoTime();
        while (reaperThreads() > 0 && System.nanoTime() - t0 < TimeUnit.MINUTES.toNanos(2)) {
            Thread.sleep(1000);
        }
        return new Reapers(left, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
    }

    /** The JDK's threads that wait for child processes ("process reaper"), alive now. */
    static long reaperThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("process reaper"))
                .count();
    }

    /** The file descriptors this JVM has open. */
    static long openFds() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /**
     * One session: the agent initializes, makes its request and ends the session. With {@code
     * hold} (opened, release) it counts down {@code opened} once initialized and waits for
     * {@code release} before its request.
     */
    static void session(Server server, CountDownLatch[] hold) throws Exception {
        Pipe agentToProxy = Pipe.open();
        Pipe proxyToAgent = Pipe.open();
        Thread agent = Thread.ofVirtual().start(() -> {
            try (OutputStream out = Channels.newOutputStream(agentToProxy.sink());
                 BufferedReader in = new BufferedReader(new InputStreamReader(
                         Channels.newInputStream(proxyToAgent.source()), StandardCharsets.UTF_8))) {
                out.write(Benchmark.INIT.getBytes(StandardCharsets.UTF_8));
                out.flush();
                expect(in.readLine(), "\"id\":0");
                if (hold != null) {
                    hold[0].countDown();
                    hold[1].await();
                }
                out.write((server.request + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                expect(in.readLine(), server.answerHolds);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        int status;
        // Proxy.run closes neither of the host's streams: the harness does, once it returns.
        try (InputStream hostIn = Channels.newInputStream(agentToProxy.source());
             OutputStream hostOut = Channels.newOutputStream(proxyToAgent.sink())) {
            // The proxy's own messages (warnings only) on stderr, as the CLI has them.
            status = Proxy.run(ProxyConfig.builder(server.spec()).messages(StderrMessages.at(ProxyMessages.Level.WARN))
                    .build(), hostIn, hostOut).exitStatus();
        }
        agent.join();
        if (status != 0) {
            throw new IllegalStateException("a session with the " + server.label + " ended with " + status);
        }
    }

    static void expect(String line, String part) {
        if (line == null || !line.contains(part)) {
            throw new IllegalStateException("unexpected answer: " + line);
        }
    }

    static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** This JVM's resident set in kB, and its children's with {@code children}. */
    static long rssKb(boolean children) {
        long sum = vmRss(ProcessHandle.current().pid());
        if (children) {
            for (ProcessHandle c : ProcessHandle.current().children().toList()) {
                sum += vmRss(c.pid());
            }
        }
        return sum;
    }

    static long vmRss(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Gone between listing and reading.
        }
        return 0;
    }
}
