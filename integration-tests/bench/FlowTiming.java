// A served flow beside the passive proxy on the same world (see Benchmark.java).

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

final class FlowTiming {

    static final String FIND_USER = "{\"jsonrpc\":\"2.0\",\"id\":\"f%d\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"find_user_id_by_email\",\"arguments\":{\"email\":\"c%<d@example.com\"}}}\n";
    static final String CANCEL = "{\"jsonrpc\":\"2.0\",\"id\":\"x%d\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W%<da\",\"reason\":\"no longer needed\"}}}\n";

    private FlowTiming() {
    }

    /**
     * A flow served on the retail world (shop.flow.json) beside the passive proxy on the same
     * world, interleaved: sessions of {@code customers} customers, each of whom the agent looks
     * up by email (the flow then looks up the user and both orders, and the answer comes with
     * the three appended) and whose first order it then cancels (no lookup follows a cancel:
     * the flow decides and hands back at once). The agent waits for each answer, as agents do.
     * Medians over the rounds of each session's median; the shop flow's 40 lookups a session
     * allow 13 customers, so the default of 10 stays under the cap.
     */
    static void run(Path root, int rounds, int customers) throws Exception {
        String demo = root.resolve("bin/stretto-mcp-demo").toString();
        String proxy = root.resolve("bin/stretto-proxy").toString();
        String flow = root.resolve("testdata/reference/home/shop.flow.json").toString();
        List<List<String>> commands = List.of(List.of(proxy, "--", demo, "--world", "retail"),
                List.of(proxy, "--flow", flow, "--", demo, "--world", "retail"));
        List<List<double[]>> runs = List.of(new ArrayList<>(), new ArrayList<>());
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int s = (k + r) % 2;
                runs.get(s).add(session(commands.get(s), customers, s == 1));
            }
        }
        System.out.printf(Locale.ROOT, "%nserved flow, shop.flow.json on the retail world: %d customers a session;"
                + " medians across rounds%n", customers);
        System.out.printf(Locale.ROOT, "%-30s %12s %14s %12s%n", "setup", "start-up ms", "find_user ms", "cancel ms");
        String[] names = {"retail, passive", "retail, --flow shop.flow.json"};
        double[][] medians = new double[2][3];
        for (int s = 0; s < 2; s++) {
            for (int m = 0; m < 3; m++) {
                int column = m;
                medians[s][m] = Benchmark.median(runs.get(s).stream().map(v -> v[column]).toList());
            }
            System.out.printf(Locale.ROOT, "%-30s %12.0f %14.2f %12.2f%n", names[s], medians[s][0], medians[s][1],
                    medians[s][2]);
        }
        System.out.printf(Locale.ROOT, "the flow: start-up %+.0f ms, find_user answered with 3 lookups %+.2f ms,"
                        + " cancel handed back %+.2f ms%n", medians[1][0] - medians[0][0],
                medians[1][1] - medians[0][1], medians[1][2] - medians[0][2]);
    }

    /** One session: {start-up ms, median find_user round trip ms, median cancel round trip ms}. */
    private static double[] session(List<String> command, int customers, boolean flowServed) throws Exception {
        try (Runs.Proc p = Runs.Proc.start(command)) {
            p.write(Benchmark.INIT);
            p.expectLine("\"id\":0");
            double startup = (System.nanoTime() - p.startNanos) / 1e6;
            List<Double> find = new ArrayList<>();
            List<Double> cancel = new ArrayList<>();
            for (int k = 1; k <= customers; k++) {
                long s = System.nanoTime();
                p.write(String.format(Locale.ROOT, FIND_USER, k));
                String answer = p.readLine();
                if (answer == null || !answer.contains("\"user_" + k + "\"")
                        || flowServed && !answer.contains("Also looked up automatically")) {
                    throw new IllegalStateException("unexpected answer to find_user " + k + ": " + answer
                            + p.stderrTail());
                }
                find.add((System.nanoTime() - s) / 1e6);
                s = System.nanoTime();
                p.write(String.format(Locale.ROOT, CANCEL, k));
                p.expectLine("cancelled");
                cancel.add((System.nanoTime() - s) / 1e6);
            }
            p.endAndAwait();
            return new double[] {startup, Benchmark.median(find), Benchmark.median(cancel)};
        }
    }
}
