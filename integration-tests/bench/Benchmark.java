// The benchmark behind the README's performance section. Run it with bin/bench.
//
// Every figure is a ratio against a baseline measured in the same run, interleaved with
// it, because the machines here are noisy: the demo server on its own is the baseline,
// and the same work goes through stretto-proxy in front of it (passive, then recording).
// Active mode is measured on the demo's retail world (--guards --commit), beside the
// passive proxy on the same world, and the difference between the two is printed.
// -Dagainst=DIR adds the proxy of another checkout (its jars built) to the same rounds.
// Then sessions run in this JVM, as a harness runs them: see InJvmSessions.java beside this file.
//
//   start-up    time from process start to the initialize answer (median of N runs)
//   throughput  wall time of a pipelined burst of tools/call (no delay)
//   latency     sequential ping round trips (median and p99)
//   memory      peak resident set (VmHWM) of the whole process tree during the burst
//   learn       wall time of `stretto learn --habit-only` over 1,000 sessions (learnRow)
//   flow        a served flow (shop.flow.json on the retail world) against the passive proxy on
//               the same world: start-up, a call the flow follows with three lookups, a call it
//               hands back at once (flowRows)

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

public class Benchmark {
    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}\n";

    /**
     * @param call the burst's tools/call, with %d for the call's number
     */
    record Setup(String name, List<String> command, String call) {
    }

    static final String ECHO_CALL = "{\"jsonrpc\":\"2.0\",\"id\":\"c%d\",\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
            + "\"arguments\":{\"text\":\"call %<d\"}}}\n";
    static final String RETAIL_CALL = "{\"jsonrpc\":\"2.0\",\"id\":\"c%d\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"get_order_details\",\"arguments\":{\"order_id\":\"#W%<da\"}}}\n";

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        String part = System.getProperty("part", "all");
        if (!part.equals("injvm")) {
            processes(root);
        }
        if (!part.equals("process")) {
            // The proxy's own messages (warnings only) on stderr, as the CLI has them.
            System.setProperty("tinylog.writer.level", "warn");
            InJvmSessions.run(Integer.getInteger("injvmSessions", 2000), Integer.getInteger("injvmOpen", 1000));
        }
    }

    /** The proxy as a process in front of the demo, against the demo alone; a served flow; then stretto learn. */
    static void processes(Path root) throws Exception {
        int rounds = Integer.getInteger("rounds", 5);
        int calls = Integer.getInteger("calls", 20000);
        int pings = Integer.getInteger("pings", 2000);
        String demo = root.resolve("bin/stretto-mcp-demo").toString();
        String proxy = root.resolve("bin/stretto-proxy").toString();
        Path logs = Files.createTempDirectory("stretto-bench-logs");
        List<Setup> setups = new ArrayList<>(List.of(
                new Setup("demo alone (baseline)", List.of(demo), ECHO_CALL),
                new Setup("proxy, passive", List.of(proxy, "--", demo), ECHO_CALL),
                new Setup("proxy, --record", List.of(proxy, "--record", logs.toString(), "--", demo), ECHO_CALL)));
        // Another checkout's proxy (a change's base, say), in front of the same demo, measured
        // in the same rounds: a before/after comparison the machine's drift cannot skew.
        String against = System.getProperty("against");
        if (against != null) {
            String other = Path.of(against).toAbsolutePath().normalize().resolve("bin/stretto-proxy").toString();
            setups.add(new Setup("against, passive", List.of(other, "--", demo), ECHO_CALL));
            setups.add(new Setup("against, --record", List.of(other, "--record", logs.toString(), "--", demo), ECHO_CALL));
        }
        // The last two: the active-mode comparison below reads them so.
        setups.add(new Setup("retail, passive", List.of(proxy, "--", demo, "--world", "retail"), RETAIL_CALL));
        setups.add(new Setup("retail, --guards --commit", List.of(proxy, "--domain", "retail", "--guards", "--commit", "--",
                demo, "--world", "retail"), RETAIL_CALL));

        int n = setups.size();
        double[][] startup = new double[n][rounds];
        double[][] burst = new double[n][rounds];
        double[][] pingMedian = new double[n][rounds];
        double[][] pingP99 = new double[n][rounds];
        double[][] rss = new double[n][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int s = 0; s < n; s++) { // interleaved, so drift hits every setup alike
                Run run = Run.of(setups.get(s).command(), setups.get(s).call(), calls, pings);
                startup[s][r] = run.startupMs;
                burst[s][r] = run.burstMs;
                pingMedian[s][r] = run.pingMedianUs;
                pingP99[s][r] = run.pingP99Us;
                rss[s][r] = run.peakRssMb;
            }
            System.err.printf("round %d of %d done%n", r + 1, rounds);
        }
        System.out.printf(Locale.ROOT, "stretto-proxy benchmark: %d rounds, %d calls per burst, %d pings; medians across rounds%n",
                rounds, calls, pings);
        System.out.printf(Locale.ROOT, "%-28s %12s %12s %12s %12s %12s%n", "setup", "start-up ms", "burst ms", "ping p50 us",
                "ping p99 us", "peak RSS MB");
        for (int s = 0; s < n; s++) {
            System.out.printf(Locale.ROOT, "%-28s %12.0f %12.0f %12.0f %12.0f %12.0f%n", setups.get(s).name(),
                    median(startup[s]), median(burst[s]), median(pingMedian[s]), median(pingP99[s]), median(rss[s]));
        }
        System.out.println("ratios against the baseline (1.00 = no cost):");
        for (int s = 1; s < n; s++) {
            System.out.printf(Locale.ROOT, "%-28s %12.2f %12.2f %12.2f %12.2f %12.2f%n", setups.get(s).name(),
                    median(startup[s]) / median(startup[0]), median(burst[s]) / median(burst[0]),
                    median(pingMedian[s]) / median(pingMedian[0]), median(pingP99[s]) / median(pingP99[0]),
                    median(rss[s]) / median(rss[0]));
        }
        int passive = n - 2;
        int active = n - 1;
        System.out.printf(Locale.ROOT, "active mode (--guards --commit) against the passive proxy on the retail world:"
                        + " ping p50 %+.0f us, ping p99 %+.0f us, burst %+.0f ms, start-up %+.0f ms%n",
                median(pingMedian[active]) - median(pingMedian[passive]), median(pingP99[active]) - median(pingP99[passive]),
                median(burst[active]) - median(burst[passive]), median(startup[active]) - median(startup[passive]));
        flowRows(root, rounds, Integer.getInteger("customers", 10));
        learnRow(root, Integer.getInteger("sessions", 1000), Integer.getInteger("learnRounds", 3));
    }

    static final String FIND_USER = "{\"jsonrpc\":\"2.0\",\"id\":\"f%d\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"find_user_id_by_email\",\"arguments\":{\"email\":\"c%<d@example.com\"}}}\n";
    static final String CANCEL = "{\"jsonrpc\":\"2.0\",\"id\":\"x%d\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W%<da\",\"reason\":\"no longer needed\"}}}\n";

    /**
     * A flow served on the retail world beside the passive proxy on the same world, interleaved:
     * sessions of {@code customers} customers, each of whom the agent looks up by email (the
     * flow then looks up the user and both orders, and the answer comes with the three
     * appended) and whose first order it then cancels (no lookup follows a cancel: the flow
     * decides and hands back at once). The agent waits for each answer, as agents do. Medians
     * over the rounds of each session's median; the shop flow's 40 lookups a session allow 13
     * customers, so the default of 10 stays under the cap.
     */
    static void flowRows(Path root, int rounds, int customers) throws Exception {
        String demo = root.resolve("bin/stretto-mcp-demo").toString();
        String proxy = root.resolve("bin/stretto-proxy").toString();
        String flow = root.resolve("testdata/reference/home/shop.flow.json").toString();
        List<List<String>> commands = List.of(List.of(proxy, "--", demo, "--world", "retail"),
                List.of(proxy, "--flow", flow, "--", demo, "--world", "retail"));
        double[][] startup = new double[2][rounds];
        double[][] lookedUp = new double[2][rounds];
        double[][] handedBack = new double[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int s = 0; s < 2; s++) {
                double[] row = flowSession(commands.get(s), customers, s == 1);
                startup[s][r] = row[0];
                lookedUp[s][r] = row[1];
                handedBack[s][r] = row[2];
            }
        }
        System.out.printf(Locale.ROOT, "served flow, shop.flow.json on the retail world: %d customers a session;"
                + " medians across rounds%n", customers);
        System.out.printf(Locale.ROOT, "%-28s %12s %18s %18s%n", "setup", "start-up ms", "find_user ms", "cancel ms");
        String[] names = {"retail, passive", "retail, --flow shop.flow.json"};
        for (int s = 0; s < 2; s++) {
            System.out.printf(Locale.ROOT, "%-28s %12.0f %18.2f %18.2f%n", names[s], median(startup[s]),
                    median(lookedUp[s]), median(handedBack[s]));
        }
        System.out.printf(Locale.ROOT, "the flow: start-up %+.0f ms, find_user answered with 3 lookups %+.2f ms,"
                        + " cancel handed back %+.2f ms%n", median(startup[1]) - median(startup[0]),
                median(lookedUp[1]) - median(lookedUp[0]), median(handedBack[1]) - median(handedBack[0]));
    }

    /** One session: {start-up ms, median find_user round trip ms, median cancel round trip ms}. */
    static double[] flowSession(List<String> command, int customers, boolean flowServed) throws Exception {
        Started started = Started.of(command);
        Process p = started.process();
        try {
            OutputStream in = started.in();
            BufferedReader out = started.out();
            double[] find = new double[customers];
            double[] cancel = new double[customers];
            for (int k = 0; k < customers; k++) {
                long s = System.nanoTime();
                in.write(String.format(Locale.ROOT, FIND_USER, k + 1).getBytes(StandardCharsets.UTF_8));
                in.flush();
                String answer = out.readLine();
                Run.expect(answer, "\"user_" + (k + 1) + "\"");
                if (flowServed) {
                    Run.expect(answer, "Also looked up automatically");
                }
                find[k] = (System.nanoTime() - s) / 1e6;
                s = System.nanoTime();
                in.write(String.format(Locale.ROOT, CANCEL, k + 1).getBytes(StandardCharsets.UTF_8));
                in.flush();
                Run.expect(out.readLine(), "cancelled");
                cancel[k] = (System.nanoTime() - s) / 1e6;
            }
            in.close();
            if (p.waitFor() != 0) {
                throw new IllegalStateException(command + " exited " + p.exitValue());
            }
            return new double[] {started.startupMs(), median(find), median(cancel)};
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /**
     * How long `stretto learn --habit-only` takes for many sessions: copies of the six shop
     * logs of the test data, each with a fresh session id, written into a temporary directory,
     * learned from learnRounds times (the median is printed, with the JVM's start-up included).
     */
    static void learnRow(Path root, int sessions, int learnRounds) throws Exception {
        if (sessions <= 0) {
            return;
        }
        Path dir = Files.createTempDirectory("stretto-bench-learn");
        Path logs = Files.createDirectories(dir.resolve("logs"));
        List<Path> shop;
        try (var files = Files.list(root.resolve("testdata/reference/home/logs/shop"))) {
            shop = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
        }
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2027, 1, 1, 0, 0);
        for (int i = 0; i < sessions; i++) {
            Path source = shop.get(i % shop.size());
            String old = source.getFileName().toString().replace(".jsonl", "");
            String id = start.plusSeconds(i).format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss"))
                    + ".000Z-" + (20000 + i);
            String text = Files.readString(source, StandardCharsets.UTF_8);
            int firstLine = text.indexOf('\n');
            Files.writeString(logs.resolve(id + ".jsonl"), text.substring(0, firstLine).replace(old, id)
                    + text.substring(firstLine), StandardCharsets.UTF_8);
        }
        double[] seconds = new double[learnRounds];
        for (int r = 0; r < learnRounds; r++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(root.resolve("bin/stretto").toString(), "learn", "--sessions",
                    logs.toString(), "--domain", "shop", "--out", dir.resolve("shop.flow.json").toString(),
                    "--habit-only").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("stretto learn failed with status " + p.exitValue());
            }
            seconds[r] = (System.nanoTime() - t0) / 1e9;
        }
        System.out.printf(Locale.ROOT, "stretto learn --habit-only, %d sessions: %.1f s (median of %d runs)%n",
                sessions, median(seconds), learnRounds);
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    static double median(double[] xs) {
        double[] c = xs.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    /** A process started and initialized: the time from its start to the initialize answer. */
    record Started(Process process, OutputStream in, BufferedReader out, double startupMs) {
        static Started of(List<String> command) throws Exception {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                OutputStream in = p.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8),
                        1 << 16);
                in.write(INIT.getBytes(StandardCharsets.UTF_8));
                in.flush();
                Run.expect(out.readLine(), "\"id\":0");
                return new Started(p, in, out, (System.nanoTime() - t0) / 1e6);
            } catch (Exception | Error e) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw e;
            }
        }
    }

    record Run(double startupMs, double burstMs, double pingMedianUs, double pingP99Us, double peakRssMb) {
        static Run of(List<String> command, String call, int calls, int pings) throws Exception {
            Started started = Started.of(command);
            Process p = started.process();
            try {
                OutputStream in = started.in();
                BufferedReader out = started.out();
                double startup = started.startupMs();

                long[] rtt = new long[pings];
                for (int i = 0; i < pings; i++) {
                    long s = System.nanoTime();
                    in.write(("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 1) + ",\"method\":\"ping\"}\n").getBytes(StandardCharsets.UTF_8));
                    in.flush();
                    expect(out.readLine(), "\"result\"");
                    rtt[i] = System.nanoTime() - s;
                }
                Arrays.sort(rtt);

                StringBuilder lines = new StringBuilder();
                for (int i = 0; i < calls; i++) {
                    lines.append(String.format(Locale.ROOT, call, i));
                }
                byte[] burstBytes = lines.toString().getBytes(StandardCharsets.UTF_8);
                long b = System.nanoTime();
                Thread writer = Thread.ofVirtual().start(() -> {
                    try {
                        in.write(burstBytes);
                        in.flush();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                long peak = 0;
                for (int i = 0; i < calls; i++) {
                    expect(out.readLine(), "\"result\"");
                    if ((i & 1023) == 0) {
                        peak = Math.max(peak, treeRssKb(p.toHandle()));
                    }
                }
                double burst = (System.nanoTime() - b) / 1e6;
                writer.join();
                peak = Math.max(peak, treeRssKb(p.toHandle()));
                in.close();
                if (p.waitFor() != 0) {
                    throw new IllegalStateException(command + " exited " + p.exitValue());
                }
                return new Run(startup, burst, rtt[pings / 2] / 1e3, rtt[(int) (pings * 0.99)] / 1e3, peak / 1024.0);
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }

        static void expect(String line, String part) {
            if (line == null || !line.contains(part)) {
                throw new IllegalStateException("unexpected answer: " + line);
            }
        }

        /** Peak resident set of a process and its descendants, in kB (VmHWM from /proc). */
        static long treeRssKb(ProcessHandle h) {
            List<ProcessHandle> all = new ArrayList<>();
            all.add(h);
            h.descendants().forEach(all::add);
            long sum = 0;
            for (ProcessHandle p : all) {
                try {
                    for (String l : Files.readAllLines(Path.of("/proc/" + p.pid() + "/status"))) {
                        if (l.startsWith("VmHWM:")) {
                            sum += Long.parseLong(l.replaceAll("[^0-9]", ""));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // The process ended between listing and reading.
                }
            }
            return sum;
        }
    }
}
