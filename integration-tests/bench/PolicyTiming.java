// Active mode's round trip with a 50-rule policy beside the same without one (see Benchmark.java).

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

final class PolicyTiming {

    static final String LOOKUP = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"lookup\",\"arguments\":{\"path\":\"/srv/data/notes/%<d.txt\",\"text\":\"call %<d\"}}}\n";

    private PolicyTiming() {
    }

    /**
     * A policy of 50 rules, every one of which a call is matched against: 40 deny rules on tool
     * names no call makes (globs), 4 on the server's hints, and 6 on the arguments (a path
     * confined to a directory, so each call's path is followed on the file system; a regex; a
     * glob; a range; an equality; a presence), none of which refuses the lookups made; and a
     * budget per tool that they stay under. Written to {@code dir}.
     */
    static Path fiftyRules(Path dir) throws Exception {
        StringBuilder b = new StringBuilder("{\"rules\": [\n");
        for (int i = 0; i < 40; i++) {
            b.append("  {\"id\": \"name-").append(i).append("\", \"tools\": [\"tool_").append(i).append("_*\", \"other_")
                    .append(i).append("\"], \"action\": \"deny\"},\n");
        }
        for (String hint : List.of("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")) {
            b.append("  {\"id\": \"hint-").append(hint).append("\", \"tools\": [\"update\"], \"annotations\": {\"")
                    .append(hint).append("\": [true, false, \"absent\"]}, \"action\": \"log\"},\n");
        }
        b.append("""
                  {"id": "confined", "arguments": {"/path": {"outside": "/srv/data"}}, "action": "deny"},
                  {"id": "no-secrets", "arguments": {"/text": {"regex": "(?:password|secret|token)=\\\\S+"}}, "action": "deny"},
                  {"id": "no-pem", "arguments": {"/path": {"glob": "*.pem"}}, "action": "deny"},
                  {"id": "big", "arguments": {"/count": {"min": 1000}}, "action": "ask"},
                  {"id": "forced", "arguments": {"/force": {"equals": true}}, "action": "ask"},
                  {"id": "recursive", "arguments": {"/recursive": {"present": true}}, "action": "log"}],
                 "budgets": [{"id": "per-tool", "per_tool": 1000000, "action": "deny"}],
                 "pinning": "deny"}
                """);
        Path file = dir.resolve("fifty-rules.policy.json");
        Files.writeString(file, b.toString());
        return file;
    }

    /**
     * The proxy in active mode in front of the demo (--commit, so every call and listing is
     * read), with and without the 50 rules, interleaved round by round: sequential tools/call
     * round trips after a warm-up, as a host that waits for each answer makes them.
     */
    static void run(Path root, int rounds, int calls, int warmUp) throws Exception {
        String demo = root.resolve("bin/stretto-mcp-demo").toString();
        String proxy = root.resolve("bin/stretto-proxy").toString();
        Path dir = Files.createTempDirectory("stretto-bench-policy");
        try {
            Path policy = fiftyRules(dir);
            List<List<String>> commands = List.of(List.of(proxy, "--commit", "--", demo),
                    List.of(proxy, "--commit", "--policy", policy.toString(), "--", demo));
            List<List<double[]>> runs = List.of(new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    int s = (k + r) % 2;
                    runs.get(s).add(session(commands.get(s), calls, warmUp));
                }
            }
            System.out.printf(Locale.ROOT, "%npolicy: tools/call round trips through the proxy in active mode (--commit)"
                    + " in front of the demo, %d calls a session; medians across rounds%n", calls);
            System.out.printf(Locale.ROOT, "%-34s %10s %10s%n", "setup", "p50 us", "p90 us");
            String[] names = {"active mode, no policy", "active mode, a 50-rule policy"};
            double[][] medians = new double[2][2];
            for (int s = 0; s < 2; s++) {
                for (int m = 0; m < 2; m++) {
                    int column = m;
                    medians[s][m] = Benchmark.median(runs.get(s).stream().map(v -> v[column]).toList());
                }
                System.out.printf(Locale.ROOT, "%-34s %10.0f %10.0f%n", names[s], medians[s][0], medians[s][1]);
            }
            System.out.printf(Locale.ROOT, "the policy: p50 %+.0f us (%.2fx), p90 %+.0f us (%.2fx)%n",
                    medians[1][0] - medians[0][0], medians[1][0] / medians[0][0], medians[1][1] - medians[0][1],
                    medians[1][1] / medians[0][1]);
        } finally {
            Benchmark.emptyDirectory(dir);
            Files.deleteIfExists(dir);
        }
    }

    /** One session: {p50, p90} of its round trips, in microseconds. */
    private static double[] session(List<String> command, int calls, int warmUp) throws Exception {
        try (Runs.Proc p = Runs.Proc.start(command)) {
            p.write(Benchmark.INIT);
            p.expectLine("\"id\":0");
            p.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            p.write("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}\n");
            p.expectLine("\"id\":\"list\"");
            long[] rtt = new long[calls];
            for (int i = -warmUp; i < calls; i++) {
                int id = i + warmUp + 1;
                long s = System.nanoTime();
                p.write(String.format(Locale.ROOT, LOOKUP, id));
                String answer = p.readLine();
                if (answer == null || !answer.contains("\"id\":" + id + ",") || answer.contains("Refused")) {
                    throw new IllegalStateException("unexpected answer to call " + id + ": " + answer + p.stderrTail());
                }
                if (i >= 0) {
                    rtt[i] = System.nanoTime() - s;
                }
            }
            p.endAndAwait();
            java.util.Arrays.sort(rtt);
            return new double[] {Runs.percentile(rtt, 0.50) / 1e3, Runs.percentile(rtt, 0.90) / 1e3};
        }
    }
}
