// The benchmark's table, with the project's targets beside the figures, then every target with
// the figure that meets it or not (and, with --against, the other build's beside it), and the
// same as JSON.

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

final class Report {

    /** How a row is computed from the rounds. */
    enum Kind {
        /** The setup's median. */
        VALUE,
        /** The median of the rounds' differences from the baseline. */
        ADDED,
        /** The median of the rounds' ratios to the baseline, in per cent. */
        SHARE,
        /** The median of the rounds' ratios to the baseline. */
        RATIO,
        /** The setup's median divided by the big line's size in MB. */
        TIMES_LINE
    }

    /**
     * A target for one setup.
     *
     * @param text what the table prints ({@code <= 30})
     * @param met  whether a value meets it
     */
    record Target(String text, DoublePredicate met) {
        static Target atMost(double limit) {
            return new Target("<= " + Benchmark.fmt(limit == Math.rint(limit) ? "%.0f" : "%.1f", limit),
                    v -> v <= limit);
        }

        static Target atLeast(double limit) {
            return new Target(">= " + Benchmark.fmt(limit == Math.rint(limit) ? "%.0f" : "%.1f", limit),
                    v -> v >= limit);
        }
    }

    /**
     * One row: a measure of the rounds and how to show it; {@code targets} by setup key.
     */
    record Row(String name, String unit, Benchmark.Measure measure, Kind kind, Map<String, Target> targets) {
        static Row of(String name, String unit, Benchmark.Measure measure, Kind kind) {
            return new Row(name, unit, measure, kind, Map.of());
        }

        Row target(String setup, Target t) {
            Map<String, Target> m = new LinkedHashMap<>(targets);
            m.put(setup, t);
            return new Row(name, unit, measure, kind, m);
        }
    }

    private final Benchmark.Results results;
    private final Benchmark.Options options;
    private final List<Row> rows;

    private Report(Benchmark.Results results, Benchmark.Options options, List<Row> rows) {
        this.results = results;
        this.options = options;
        this.rows = rows;
    }

    static Report of(Benchmark.Results results, Benchmark.Options o) {
        String calls = Benchmark.fmt("%,d", o.parallelCalls());
        String big = o.bigLineMiB() + " MiB";
        List<Row> rows = List.of(
                Row.of("start-up to the initialize answer", "ms", Benchmark.Measure.STARTUP_MS, Kind.VALUE),
                Row.of("  added to the demo's", "ms", Benchmark.Measure.STARTUP_MS, Kind.ADDED)
                        .target("passive", Target.atMost(40)).target("record", Target.atMost(40)),
                Row.of("resident set once idle", "MB", Benchmark.Measure.IDLE_RSS_MB, Kind.VALUE)
                        .target("passive", Target.atMost(40)),
                Row.of("round trip p50", "us", Benchmark.Measure.PING_P50_US, Kind.VALUE),
                Row.of("  added", "us", Benchmark.Measure.PING_P50_US, Kind.ADDED)
                        .target("passive", Target.atMost(30)).target("record", Target.atMost(40)),
                Row.of("round trip p90", "us", Benchmark.Measure.PING_P90_US, Kind.VALUE),
                Row.of("  added", "us", Benchmark.Measure.PING_P90_US, Kind.ADDED),
                Row.of("round trip p99", "us", Benchmark.Measure.PING_P99_US, Kind.VALUE),
                Row.of("  added", "us", Benchmark.Measure.PING_P99_US, Kind.ADDED),
                Row.of(calls + " parallel calls of " + o.delayMs() + " ms", "ms", Benchmark.Measure.PARALLEL_MS,
                        Kind.VALUE),
                Row.of("  times the demo's", "x", Benchmark.Measure.PARALLEL_MS, Kind.RATIO),
                Row.of("1 KiB lines through cat", "MB/s", Benchmark.Measure.KIB_MBPS, Kind.VALUE),
                Row.of("  share of cat's", "%", Benchmark.Measure.KIB_MBPS, Kind.SHARE)
                        .target("passive", Target.atLeast(80)).target("record", Target.atLeast(50))
                        .target("active", Target.atLeast(30)),
                Row.of("1 MiB lines through cat", "MB/s", Benchmark.Measure.MIB_MBPS, Kind.VALUE),
                Row.of("  share of cat's", "%", Benchmark.Measure.MIB_MBPS, Kind.SHARE)
                        .target("passive", Target.atLeast(90)).target("record", Target.atLeast(70)),
                Row.of("one " + big + " line: peak resident set", "MiB", Benchmark.Measure.BIG_RSS_MB, Kind.VALUE),
                Row.of("  times the line", "x", Benchmark.Measure.BIG_RSS_MB, Kind.TIMES_LINE)
                        .target("passive", Target.atMost(2.5)).target("record", Target.atMost(2.5)),
                Row.of("one " + big + " line: there and back", "ms", Benchmark.Measure.BIG_MS, Kind.VALUE));
        List<Row> measured = new ArrayList<>();
        for (Row r : rows) {
            if (!results.of(results.setups.getFirst(), r.measure()).isEmpty()) {
                measured.add(r);
            }
        }
        return new Report(results, o, measured);
    }

    /** The row's figure for a setup, or NaN when it has none (the baseline of a comparison). */
    double value(Row row, Setup setup) {
        List<Double> mine = results.of(setup, row.measure());
        if (row.kind() == Kind.VALUE) {
            return Benchmark.median(mine);
        }
        if (row.kind() == Kind.TIMES_LINE) {
            return setup.isBaseline() ? Double.NaN : Benchmark.median(mine) / options.bigLineMiB();
        }
        if (setup.isBaseline()) {
            return Double.NaN;
        }
        List<Double> base = results.of(results.setups.getFirst(), row.measure());
        List<Double> paired = new ArrayList<>();
        for (int r = 0; r < Math.min(mine.size(), base.size()); r++) {
            paired.add(switch (row.kind()) {
                case ADDED -> mine.get(r) - base.get(r);
                case SHARE -> 100 * mine.get(r) / base.get(r);
                default -> mine.get(r) / base.get(r);
            });
        }
        return Benchmark.median(paired);
    }

    String table() {
        StringBuilder out = new StringBuilder();
        out.append(Benchmark.fmt("stretto-proxy benchmark, %s, %d round(s)%s; medians (JDK %s, %d cores)%n",
                Benchmark.today(), options.rounds(), options.quick() ? " (--quick: small amounts, not figures)" : "",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        out.append("baselines: the demo server driven directly (start-up, round trips, parallel calls, memory);"
                + " cat (lines)\n");
        out.append(Benchmark.fmt("%-44s %5s", "", "unit"));
        for (Setup s : results.setups) {
            out.append(Benchmark.fmt(" %11s", s.label()));
        }
        out.append("   target\n");
        for (Row row : rows) {
            out.append(Benchmark.fmt("%-44s %5s", row.name(), row.unit()));
            for (Setup s : results.setups) {
                out.append(Benchmark.fmt(" %11s", show(row, value(row, s))));
            }
            out.append(targets(row)).append('\n');
        }
        return out.append(goals()).toString();
    }

    private static String show(Row row, double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (row.kind() == Kind.ADDED) {
            return Benchmark.fmt("%+.0f", v);
        }
        return Benchmark.fmt(Math.abs(v) < 10 && v != 0 ? "%.2f" : "%.0f", v);
    }

    private String targets(Row row) {
        if (row.targets().isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (var e : row.targets().entrySet()) {
            double v = value(row, setup(e.getKey()));
            parts.add(setup(e.getKey()).label() + " " + e.getValue().text()
                    + (Double.isNaN(v) ? "" : e.getValue().met().test(v) ? " met" : " NOT met"));
        }
        return "   " + String.join(" / ", parts);
    }

    /** The three setups the targets are about, in this build or in the one of {@code --against}. */
    record Side(String passive, String record, String active) {
        static final Side THIS = new Side("passive", "record", "active");
        static final Side AGAINST = new Side("against_passive", "against_record", "against_active");
    }

    /** How a target's figure is made from the rounds of one side; NaN when it was not measured. */
    @FunctionalInterface
    interface Figure {
        double of(Report report, Side side);
    }

    /**
     * One of the project's targets, as the summary prints it.
     *
     * @param name   what is measured, and in which setup
     * @param unit   the figure's unit
     * @param figure how it is made from the rounds
     * @param target what it should be
     */
    record Goal(String name, String unit, Figure figure, Target target) {
    }

    static final List<Goal> GOALS = List.of(
            new Goal("start-up added to the demo's, passive", "ms",
                    (r, s) -> r.value(Benchmark.Measure.STARTUP_MS, Kind.ADDED, s.passive()), Target.atMost(40)),
            new Goal("start-up added to the demo's, --record", "ms",
                    (r, s) -> r.value(Benchmark.Measure.STARTUP_MS, Kind.ADDED, s.record()), Target.atMost(40)),
            new Goal("resident set once idle, passive", "MB",
                    (r, s) -> r.value(Benchmark.Measure.IDLE_RSS_MB, Kind.VALUE, s.passive()), Target.atMost(40)),
            new Goal("round trip added, p50, passive", "us",
                    (r, s) -> r.value(Benchmark.Measure.PING_P50_US, Kind.ADDED, s.passive()), Target.atMost(30)),
            new Goal("round trip added, p50, --record", "us",
                    (r, s) -> r.value(Benchmark.Measure.PING_P50_US, Kind.ADDED, s.record()), Target.atMost(40)),
            new Goal("round trip added, p50, active, times passive's", "x", Report::activeOverPassive,
                    Target.atMost(2)),
            new Goal("active, 1 KiB lines through cat, share of cat's", "%",
                    (r, s) -> r.value(Benchmark.Measure.KIB_MBPS, Kind.SHARE, s.active()), Target.atLeast(30)),
            new Goal("passive, 1 KiB lines through cat, share of cat's", "%",
                    (r, s) -> r.value(Benchmark.Measure.KIB_MBPS, Kind.SHARE, s.passive()), Target.atLeast(80)),
            new Goal("passive, 1 MiB lines through cat, share of cat's", "%",
                    (r, s) -> r.value(Benchmark.Measure.MIB_MBPS, Kind.SHARE, s.passive()), Target.atLeast(90)),
            new Goal("--record, 1 KiB lines through cat, share of cat's", "%",
                    (r, s) -> r.value(Benchmark.Measure.KIB_MBPS, Kind.SHARE, s.record()), Target.atLeast(50)),
            new Goal("--record, 1 MiB lines through cat, share of cat's", "%",
                    (r, s) -> r.value(Benchmark.Measure.MIB_MBPS, Kind.SHARE, s.record()), Target.atLeast(70)),
            new Goal("one big line, peak resident set, times the line, passive", "x",
                    (r, s) -> r.value(Benchmark.Measure.BIG_RSS_MB, Kind.TIMES_LINE, s.passive()), Target.atMost(2.5)),
            new Goal("one big line, peak resident set, times the line, --record", "x",
                    (r, s) -> r.value(Benchmark.Measure.BIG_RSS_MB, Kind.TIMES_LINE, s.record()), Target.atMost(2.5)));

    // What active mode adds to a round trip's p50, over what passive mode adds: NaN unless passive adds something.
    private static double activeOverPassive(Report r, Side s) {
        double passive = r.value(Benchmark.Measure.PING_P50_US, Kind.ADDED, s.passive());
        double active = r.value(Benchmark.Measure.PING_P50_US, Kind.ADDED, s.active());
        return passive > 0 ? active / passive : Double.NaN;
    }

    /** A figure of the setup keyed {@code key}, or NaN when there is no such setup or it was not measured. */
    double value(Benchmark.Measure measure, Kind kind, String key) {
        for (Setup s : results.setups) {
            if (s.key().equals(key)) {
                return results.of(s, measure).isEmpty() ? Double.NaN
                        : value(Row.of("", "", measure, kind), s);
            }
        }
        return Double.NaN;
    }

    private boolean hasAgainst() {
        return results.setups.stream().anyMatch(s -> s.key().equals(Side.AGAINST.passive()));
    }

    /**
     * Every target with this build's figure, and the other build's beside it with {@code
     * --against}; "-" for a figure not measured (a part left out by {@code --only}, or an
     * active-mode ratio to a passive round trip that added nothing).
     */
    String goals() {
        boolean against = hasAgainst();
        StringBuilder out = new StringBuilder("\nthe targets (medians of the same rounds");
        out.append(against ? "; before: the build of --against" : "").append(")\n");
        out.append(Benchmark.fmt("%-60s %5s %10s", "", "unit", against ? "before" : ""));
        out.append(Benchmark.fmt(" %10s   %-8s %s%n", "figure", "target", ""));
        for (Goal g : GOALS) {
            double v = g.figure().of(this, Side.THIS);
            double before = against ? g.figure().of(this, Side.AGAINST) : Double.NaN;
            out.append(Benchmark.fmt("%-60s %5s %10s %10s   %-8s %s%n", g.name(), g.unit(), against ? figure(before) : "",
                    figure(v), g.target().text(), Double.isNaN(v) ? "" : g.target().met().test(v) ? "met" : "NOT met"));
        }
        return out.toString();
    }

    private static String figure(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return Benchmark.fmt(Math.abs(v) < 10 && v != 0 ? "%.2f" : "%.0f", v);
    }

    private Setup setup(String key) {
        for (Setup s : results.setups) {
            if (s.key().equals(key)) {
                return s;
            }
        }
        throw new IllegalArgumentException(key);
    }

    String json() {
        StringBuilder out = new StringBuilder("{\n");
        out.append("  \"date\": ").append(str(Benchmark.today())).append(",\n");
        out.append("  \"jdk\": ").append(str(System.getProperty("java.version"))).append(",\n");
        out.append("  \"cores\": ").append(Runtime.getRuntime().availableProcessors()).append(",\n");
        out.append("  \"quick\": ").append(options.quick()).append(",\n");
        out.append("  \"rounds\": ").append(options.rounds()).append(",\n");
        out.append("  \"setups\": {");
        List<String> setups = new ArrayList<>();
        for (Setup s : results.setups) {
            setups.add(str(s.key()) + ": " + str(String.join(" ", s.command(List.of("SERVER")))));
        }
        out.append(String.join(", ", setups)).append("},\n");
        out.append("  \"rows\": [\n");
        List<String> lines = new ArrayList<>();
        for (Row row : rows) {
            StringBuilder r = new StringBuilder("    {\"measure\": ").append(str(row.name().strip()))
                    .append(", \"unit\": ").append(str(row.unit())).append(", \"of\": ")
                    .append(str(row.measure().name().toLowerCase())).append(", \"kind\": ")
                    .append(str(row.kind().name().toLowerCase())).append(", \"values\": {");
            List<String> values = new ArrayList<>();
            for (Setup s : results.setups) {
                double v = value(row, s);
                values.add(str(s.key()) + ": " + (Double.isNaN(v) ? "null" : Benchmark.fmt("%.3f", v)));
            }
            r.append(String.join(", ", values)).append('}');
            if (!row.targets().isEmpty()) {
                List<String> t = new ArrayList<>();
                for (var e : row.targets().entrySet()) {
                    double v = value(row, setup(e.getKey()));
                    t.add(str(e.getKey()) + ": {\"target\": " + str(e.getValue().text()) + ", \"met\": "
                            + (Double.isNaN(v) ? "null" : e.getValue().met().test(v)) + "}");
                }
                r.append(", \"targets\": {").append(String.join(", ", t)).append('}');
            }
            lines.add(r.append('}').toString());
        }
        out.append(String.join(",\n", lines)).append("\n  ],\n");
        out.append("  \"targets\": [\n");
        List<String> goals = new ArrayList<>();
        for (Goal g : GOALS) {
            double v = g.figure().of(this, Side.THIS);
            double before = g.figure().of(this, Side.AGAINST);
            goals.add("    {\"target\": " + str(g.name()) + ", \"unit\": " + str(g.unit()) + ", \"goal\": "
                    + str(g.target().text()) + ", \"figure\": " + num(v) + ", \"before\": " + num(before)
                    + ", \"met\": " + (Double.isNaN(v) ? "null" : g.target().met().test(v)) + "}");
        }
        out.append(String.join(",\n", goals)).append("\n  ],\n");
        out.append("  \"rounds_by_setup\": {\n");
        List<String> raw = new ArrayList<>();
        for (Setup s : results.setups) {
            List<String> ms = new ArrayList<>();
            results.values.get(s).forEach((m, vs) -> ms.add(str(m.name().toLowerCase()) + ": "
                    + vs.stream().map(v -> Benchmark.fmt("%.3f", v)).toList()));
            raw.add("    " + str(s.key()) + ": {" + String.join(", ", ms) + "}");
        }
        out.append(String.join(",\n", raw)).append("\n  }\n}\n");
        return out.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : Benchmark.fmt("%.3f", v);
    }

    private static String str(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
