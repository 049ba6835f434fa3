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
 */
record Setup(String key, String label, Path launcher, List<String> options) {

    static List<Setup> all(Benchmark.Options o, Path logs) {
        Path proxy = o.root().resolve("bin/stretto-proxy");
        List<Setup> setups = new ArrayList<>(List.of(
                new Setup("baseline", "baseline", null, List.of()),
                new Setup("passive", "passive", proxy, List.of()),
                new Setup("record", "--record", proxy, List.of("--record", logs.toString())),
                // Every line forced to disk before it is forwarded: what durability costs.
                new Setup("record_sync", "record-sync", proxy, List.of("--record", logs.toString(), "--record-sync")),
                // Active mode as a shop runs it: every call checked by the retail guards, and
                // stretto_commit added to the tools; the servers here have no retail tools, so
                // nothing is refused, but every call and every answer to one is parsed.
                new Setup("active", "active", proxy, List.of("--domain", "retail", "--guards", "--commit"))));
        if (o.against() != null) {
            // Another checkout's proxy (a change's base, say) in the same rounds: a before/after
            // comparison the machine's drift cannot skew.
            Path other = o.against().resolve("bin/stretto-proxy");
            setups.add(new Setup("against_passive", "against", other, List.of()));
            setups.add(new Setup("against_record", "against rec", other, List.of("--record", logs.toString())));
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
