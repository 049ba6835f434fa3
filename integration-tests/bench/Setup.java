// One column of the benchmark's table: the server alone, or stretto-proxy in front of it in one
// of its modes (see Benchmark.java).

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * @param key      the column's name in the JSON
 * @param label    the column's heading in the table
 * @param launcher the proxy's launcher, or null for the baseline (the server alone)
 * @param options  the proxy's options before {@code --}
 * @param demo     the demo server's launcher, for the scenarios against the demo
 */
record Setup(String key, String label, Path launcher, List<String> options, Path demo) {

    static List<Setup> all(Benchmark.Options o, Path logs) {
        Path proxy = o.root().resolve("bin/stretto-proxy");
        Path demo = o.root().resolve("bin/stretto-mcp-demo");
        List<Setup> setups = new ArrayList<>(List.of(
                new Setup("baseline", "baseline", null, List.of(), demo),
                // Passive without --record: nothing is logged, so nothing need be cut into lines.
                new Setup("passive", "passive", proxy, List.of(), demo),
                new Setup("record", "--record", proxy, List.of("--record", logs.toString()), demo),
                // Every line forced to disk before it is forwarded: what durability costs.
                new Setup("record_sync", "record-sync", proxy, List.of("--record", logs.toString(), "--record-sync"), demo),
                // Active mode as a shop runs it: every call checked by the retail guards, and
                // stretto_commit added to the tools; the servers here have no retail tools, so
                // nothing is refused, but every call and every answer to one is parsed.
                new Setup("active", "active", proxy, List.of("--domain", "retail", "--guards", "--commit"), demo)));
        if (o.against() != null) {
            // Another checkout's proxy (a change's base, say) in the same rounds: a before/after
            // comparison the machine's drift cannot skew.
            Path other = o.against().resolve("bin/stretto-proxy");
            setups.add(new Setup("against_passive", "against", other, List.of(), demo));
            setups.add(new Setup("against_record", "against rec", other, List.of("--record", logs.toString()), demo));
            setups.add(new Setup("against_active", "against act", other,
                    List.of("--domain", "retail", "--guards", "--commit"), demo));
        }
        if (o.dist() != null) {
            // An unpacked distribution: its own runtime, launchers and start-up caches, its
            // stretto-proxy in front of its stretto-mcp-demo, beside the checkout's launchers.
            Path distDemo = o.dist().resolve("bin/stretto-mcp-demo");
            Path distProxy = o.dist().resolve("bin/stretto-proxy");
            setups.add(new Setup("dist_demo", "dist demo", null, List.of(), distDemo));
            setups.add(new Setup("dist_passive", "dist", distProxy, List.of(), distDemo));
            setups.add(new Setup("dist_record", "dist rec", distProxy, List.of("--record", logs.toString()), distDemo));
        }
        return setups;
    }

    boolean isBaseline() {
        return launcher == null;
    }

    /** The command that runs {@code server} in this setup. */
    List<String> command(List<String> server) {
        if (isBaseline()) {
            return server;
        }
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(options);
        command.add("--");
        command.addAll(server);
        return command;
    }
}
