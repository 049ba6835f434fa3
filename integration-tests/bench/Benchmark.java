// The benchmark behind docs/performance.md. Run it with bin/bench (bin/bench --help).
//
// What a user of a proxy compares: the same work done against the server directly (the
// baseline) and through stretto-proxy in front of it: passive (without --record: nothing is
// logged), recording (also with --record-sync, each line on disk before it is forwarded) and in
// active mode. Two servers serve as baselines: stretto-mcp-demo driven over its pipes (start-up,
// round trips, parallel calls, idle memory) and cat, the pipe's own limit (throughput of 1 KiB and
// 1 MiB lines, one 64 MiB line). Every round runs every setup of a scenario one after the other,
// in an order that rotates from round to round, so that the machine's drift falls on all of them
// alike; each figure is the median of the rounds, and a comparison with the baseline is the median
// of the rounds' own comparisons. The figures are printed as one table with the project's targets
// beside them, then each target with the figure that meets it or not (with --against, another
// build's figure beside it, measured in the same rounds), and written as JSON. Then a served flow
// is timed beside the passive proxy (FlowTiming.java), active mode's tool calls are timed with a
// 50-rule policy and without (PolicyTiming.java), `stretto learn` is timed, sessions are run in
// this JVM as a Java agent harness runs them (InJvmSessions.java), stretto console lists many
// sessions (ConsoleTiming.java), and stretto-proxy --listen serves hosts over HTTP beside
// supergateway (ListenTiming.java).
//
// --quick runs every scenario once with small amounts, checks every answer as the full run does
// and asserts nothing about speed: CI runs it so that the harness never rots.

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

public class Benchmark {

    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}\n";

    static final List<String> PARTS = List.of("startup", "parallel", "kib", "mib", "big", "flow", "policy", "learn",
            "injvm", "console", "listen", "tau2");

    /** The cost of a wasted lookup the τ² benchmark's tuned flows are learned with (--lookup-cost). */
    static final double DEFAULT_LOOKUP_COST = 1.0;

    /** What to run, and how much of it. */
    record Options(Path root, boolean quick, int rounds, int pings, int warmUpPings, int parallelCalls, int delayMs,
                   long kibBytes, long mibBytes, int bigLineMiB, Set<String> parts, Path against, Path dist, Path json,
                   int customers, int learnSessions, int learnRounds, int injvmSessions, int injvmOpen,
                   int consoleSessions, int listenSessions, int folds, int tau2Parallel, double lookupCost,
                   Path tau2Keep) {

        static Options parse(Path root, List<String> args) {
            boolean quick = args.contains("--quick");
            int rounds = quick ? 1 : 5;
            int pings = quick ? 50 : 3000;
            int parallel = quick ? 200 : 10_000;
            long volumeMiB = quick ? 4 : 256;
            int bigMiB = quick ? 4 : 64;
            Set<String> parts = new LinkedHashSet<>(PARTS);
            Path against = null;
            Path dist = null;
            Path json = root.resolve("integration-tests/target/bench/bench.json");
            int customers = quick ? 2 : 10;
            int learnSessions = quick ? 12 : 1000;
            int learnRounds = quick ? 1 : 3;
            int injvmSessions = quick ? 20 : 2000;
            int injvmOpen = quick ? 20 : 1000;
            int consoleSessions = quick ? 120 : 10_000;
            int listenSessions = quick ? 4 : 100;
            int folds = quick ? 2 : 5;
            int tau2Parallel = 4;
            double lookupCost = DEFAULT_LOOKUP_COST;
            Path tau2Keep = null;
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.equals("--quick")) {
                    continue;
                }
                if (a.equals("--tau2")) {
                    // The τ² retail benchmark alone: the same as --only tau2.
                    parts = new LinkedHashSet<>(List.of("tau2"));
                    continue;
                }
                String value = i + 1 < args.size() ? args.get(i + 1) : null;
                if (value == null) {
                    throw new IllegalArgumentException(a + " needs a value (bin/bench --help)");
                }
                i++;
                switch (a) {
                    case "--rounds" -> rounds = positive(a, value);
                    case "--pings" -> pings = positive(a, value);
                    case "--calls" -> parallel = positive(a, value);
                    case "--volume" -> volumeMiB = positive(a, value);
                    case "--big-line" -> bigMiB = positive(a, value);
                    case "--only" -> {
                        parts = new LinkedHashSet<>(List.of(value.split(",")));
                        for (String p : parts) {
                            if (!PARTS.contains(p)) {
                                throw new IllegalArgumentException("--only: no part " + p + "; the parts are "
                                        + String.join(",", PARTS));
                            }
                        }
                    }
                    case "--against" -> against = Path.of(value).toAbsolutePath().normalize();
                    case "--dist" -> dist = Path.of(value).toAbsolutePath().normalize();
                    case "--json" -> json = Path.of(value).toAbsolutePath();
                    case "--customers" -> customers = positive(a, value);
                    case "--sessions" -> learnSessions = positive(a, value);
                    case "--learn-rounds" -> learnRounds = positive(a, value);
                    case "--injvm-sessions" -> injvmSessions = positive(a, value);
                    case "--injvm-open" -> injvmOpen = positive(a, value);
                    case "--console-sessions" -> consoleSessions = positive(a, value);
                    case "--listen-sessions" -> listenSessions = positive(a, value);
                    case "--folds" -> folds = positive(a, value);
                    case "--parallel" -> tau2Parallel = positive(a, value);
                    case "--lookup-cost" -> lookupCost = aboveZero(a, value);
                    case "--keep" -> tau2Keep = emptyOrNew(a, Path.of(value));
                    default -> throw new IllegalArgumentException("unknown option " + a + " (bin/bench --help)");
                }
            }
            if (against != null && !Files.isExecutable(against.resolve("bin/stretto-proxy"))) {
                throw new IllegalArgumentException("--against: no bin/stretto-proxy in " + against);
            }
            if (dist != null && !Files.isExecutable(dist.resolve("runtime/bin/java"))) {
                throw new IllegalArgumentException("--dist: no runtime/bin/java in " + dist);
            }
            return new Options(root, quick, rounds, pings, Math.min(pings, quick ? 10 : 1000), parallel,
                    100, volumeMiB << 20, volumeMiB << 20, bigMiB, parts, against, dist, json, customers, learnSessions,
                    learnRounds, injvmSessions, injvmOpen, consoleSessions, listenSessions, folds, tau2Parallel, lookupCost,
                    tau2Keep);
        }

        private static Path emptyOrNew(String option, Path dir) {
            try (var entries = Files.isDirectory(dir) ? Files.list(dir) : null) {
                if (entries != null && entries.findAny().isPresent() || Files.exists(dir) && !Files.isDirectory(dir)) {
                    throw new IllegalArgumentException(option + " " + dir + ": give a new or empty directory");
                }
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(option + " " + dir + ": " + e.getMessage());
            }
            return dir.toAbsolutePath();
        }

        private static double aboveZero(String option, String value) {
            try {
                double d = Double.parseDouble(value);
                if (d > 0 && !Double.isInfinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // Said below.
            }
            throw new IllegalArgumentException(option + " takes a number above 0, not " + value);
        }

        private static int positive(String option, String value) {
            try {
                int n = Integer.parseInt(value);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // Said below.
            }
            throw new IllegalArgumentException(option + " takes a positive whole number, not " + value);
        }
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        Options options;
        try {
            options = Options.parse(root, List.of(args).subList(1, args.length));
        } catch (IllegalArgumentException e) {
            System.err.println("bin/bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path logs = Files.createTempDirectory("stretto-bench-logs");
        try {
            List<Setup> setups = Setup.all(options, logs);
            Results results = new Results(setups);
            // Rounds only when a part runs in them (--only flow,learn,injvm,tau2 has none).
            boolean inRounds = options.parts().stream().anyMatch(p -> Scenario.of(p) != null);
            for (int r = 0; inRounds && r < options.rounds(); r++) {
                for (String part : options.parts()) {
                    Scenario scenario = Scenario.of(part);
                    if (scenario == null) {
                        continue;
                    }
                    // Rotated each round: no setup always runs first, after the machine was idle.
                    for (int k = 0; k < setups.size(); k++) {
                        Setup setup = setups.get((k + r) % setups.size());
                        results.add(setup, scenario.run(setup, options));
                    }
                    emptyDirectory(logs);
                }
                System.err.printf("round %d of %d done%n", r + 1, options.rounds());
            }
            if (!results.isEmpty()) {
                Report report = Report.of(results, options);
                System.out.print(report.table());
                Files.createDirectories(options.json().getParent());
                Files.writeString(options.json(), report.json());
                System.out.println("the table as JSON: " + options.json());
            }
        } finally {
            emptyDirectory(logs);
            Files.deleteIfExists(logs);
        }
        if (options.parts().contains("flow")) {
            FlowTiming.run(root, options.rounds(), options.customers());
        }
        if (options.parts().contains("policy")) {
            PolicyTiming.run(root, options.rounds(), options.pings(), options.warmUpPings());
        }
        if (options.parts().contains("learn")) {
            LearnTiming.run(root, options.learnSessions(), options.learnRounds());
        }
        if (options.parts().contains("injvm")) {
            InJvmSessions.run(options.injvmSessions(), options.injvmOpen(), !options.quick());
        }
        if (options.parts().contains("console")) {
            ConsoleTiming.run(root, options.consoleSessions(), options.quick() ? 2 : 11);
        }
        if (options.parts().contains("listen")) {
            ListenTiming.run(root, options.rounds(), options.quick() ? 20 : 2000, options.listenSessions(),
                    options.quick() ? 3 : 50);
        }
        if (options.parts().contains("tau2")) {
            Tau2Bench.run(root, new Tau2Bench.Options(options.quick(), options.folds(), options.tau2Parallel(),
                    options.lookupCost(), options.tau2Keep(),
                    options.json().resolveSibling("tau2.json")));
        }
    }

    /** The runs of every setup, by setup and measure, in round order. */
    static final class Results {
        final List<Setup> setups;
        final Map<Setup, Map<Measure, List<Double>>> values = new LinkedHashMap<>();

        Results(List<Setup> setups) {
            this.setups = setups;
            for (Setup s : setups) {
                values.put(s, new LinkedHashMap<>());
            }
        }

        void add(Setup setup, Map<Measure, Double> run) {
            run.forEach((m, v) -> values.get(setup).computeIfAbsent(m, k -> new ArrayList<>()).add(v));
        }

        boolean isEmpty() {
            return values.values().stream().allMatch(Map::isEmpty);
        }

        /** The rounds' values of a measure, or an empty list when it was not measured. */
        List<Double> of(Setup setup, Measure m) {
            return values.get(setup).getOrDefault(m, List.of());
        }
    }

    /** What a scenario's run yields. */
    enum Measure {
        STARTUP_MS, IDLE_RSS_MB, PING_P50_US, PING_P90_US, PING_P99_US, PARALLEL_MS, KIB_MBPS, MIB_MBPS, BIG_RSS_MB,
        BIG_MS
    }

    /** One part of the benchmark, run once per setup and round. */
    interface Scenario {
        Map<Measure, Double> run(Setup setup, Options options) throws Exception;

        static Scenario of(String part) {
            return switch (part) {
                case "startup" -> Runs::startupIdleAndPings;
                case "parallel" -> Runs::parallelCalls;
                case "kib" -> (s, o) -> Runs.throughput(s, o, 1024, o.kibBytes(), Measure.KIB_MBPS);
                case "mib" -> (s, o) -> Runs.throughput(s, o, 1 << 20, o.mibBytes(), Measure.MIB_MBPS);
                case "big" -> Runs::bigLine;
                default -> null;
            };
        }
    }

    static double median(List<Double> xs) {
        double[] c = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (c.length == 0) {
            return Double.NaN;
        }
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    static void emptyDirectory(Path dir) throws java.io.IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!f.equals(dir)) {
                    Files.delete(f);
                }
            }
        }
    }

    static String today() {
        return LocalDate.now().toString();
    }

    static String fmt(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
