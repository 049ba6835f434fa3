// The τ² benchmark's figures, from the sessions it ran (see Tau2Bench.java; the definitions are in
// docs/flows.md, "The τ² retail benchmark").

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

final class Tau2Report {

    /** Counts of one group of reads and lookups. */
    static final class Counts {
        int reads;
        int served;
        int lookups;
        int precise;
        int otherArguments;

        void add(Counts c) {
            reads += c.reads;
            served += c.served;
            lookups += c.lookups;
            precise += c.precise;
            otherArguments += c.otherArguments;
        }

        double recall() {
            return reads == 0 ? Double.NaN : 100.0 * served / reads;
        }

        double precision() {
            return lookups == 0 ? Double.NaN : 100.0 * precise / lookups;
        }
    }

    private final List<Tau2Task> tasks;
    private final int folds;
    private final List<Tau2Bench.Served> served;
    private final Map<String, double[]> passiveMs;
    private final List<Tau2Bench.Verdict> verdicts;
    private final Map<String, Integer> handBacks;

    private final Counts total = new Counts();
    private final Map<Integer, Counts> byFold = new TreeMap<>();
    private final Map<String, Counts> byTool = new TreeMap<>();
    private int expertCalls;
    private int callsSent;
    private final List<Double> carryingServed = new ArrayList<>();
    private final List<Double> carryingPassive = new ArrayList<>();
    private final List<Double> carryingAdded = new ArrayList<>();
    private final List<Double> otherServed = new ArrayList<>();
    private final List<Double> otherPassive = new ArrayList<>();

    Tau2Report(List<Tau2Task> tasks, int folds, List<Tau2Bench.Served> served, Map<String, double[]> passiveMs,
               List<Tau2Bench.Verdict> verdicts, Map<String, Integer> handBacks) {
        this.tasks = tasks;
        this.folds = folds;
        this.served = served;
        this.passiveMs = passiveMs;
        this.verdicts = verdicts;
        this.handBacks = handBacks;
        for (Tau2Bench.Served s : served) {
            count(s);
        }
        byFold.values().forEach(total::add);
    }

    private Counts tool(String name) {
        return byTool.computeIfAbsent(name, k -> new Counts());
    }

    private void count(Tau2Bench.Served s) {
        Counts fold = byFold.computeIfAbsent(s.fold(), k -> new Counts());
        List<Tau2Task.Call> calls = s.task().calls();
        expertCalls += calls.size();
        callsSent += s.sent().size();
        // Follow-up reads: every read after the session's first call.
        for (int k = 1; k < calls.size(); k++) {
            Tau2Task.Call c = calls.get(k);
            if (!c.isRead()) {
                continue;
            }
            Counts one = new Counts();
            one.reads = 1;
            if (s.skipped().contains(k)) {
                one.served = 1;
            } else if (sameToolOtherArguments(s, k)) {
                one.otherArguments = 1;
            }
            fold.add(one);
            tool(c.tool()).add(one);
        }
        // A lookup is precise when the expert makes the same read later, before its next write,
        // and the flow had not made it since the last write already.
        List<Tau2Bench.Made> made = s.lookups();
        for (int i = 0; i < made.size(); i++) {
            Tau2Bench.Made m = made.get(i);
            Counts one = new Counts();
            one.lookups = 1;
            if (!repeated(s, i) && readLater(calls, m)) {
                one.precise = 1;
            }
            fold.add(one);
            tool(m.lookup().tool()).add(one);
        }
        double[] passive = passiveMs.get(s.task().id());
        for (int j = 0; j < s.sent().size(); j++) {
            int k = s.sent().get(j);
            boolean carries = made.stream().anyMatch(m -> m.after() == k);
            if (carries) {
                carryingServed.add(s.ms().get(j));
                carryingPassive.add(passive[k]);
                carryingAdded.add(s.ms().get(j) - passive[k]);
            } else {
                otherServed.add(s.ms().get(j));
                otherPassive.add(passive[k]);
            }
        }
    }

    /** The read was missed, though the flow looked the same tool up with other arguments since the last write. */
    private static boolean sameToolOtherArguments(Tau2Bench.Served s, int k) {
        int lastWrite = lastWriteBefore(s.task().calls(), k);
        Tau2Task.Call c = s.task().calls().get(k);
        return s.lookups().stream().anyMatch(m -> m.after() < k && m.after() >= lastWrite
                && m.lookup().tool().equals(c.tool()));
    }

    private static int lastWriteBefore(List<Tau2Task.Call> calls, int k) {
        for (int j = k - 1; j >= 0; j--) {
            if (calls.get(j).isWrite() && !calls.get(j).error()) {
                return j;
            }
        }
        return -1;
    }

    private static boolean repeated(Tau2Bench.Served s, int i) {
        Tau2Bench.Made m = s.lookups().get(i);
        int lastWrite = lastWriteBefore(s.task().calls(), m.after() + 1);
        for (int j = 0; j < i; j++) {
            Tau2Bench.Made e = s.lookups().get(j);
            if (e.after() >= lastWrite && e.lookup().tool().equals(m.lookup().tool())
                    && e.lookup().arguments().equals(m.lookup().arguments())) {
                return true;
            }
        }
        return false;
    }

    private static boolean readLater(List<Tau2Task.Call> calls, Tau2Bench.Made m) {
        for (int j = m.after() + 1; j < calls.size(); j++) {
            Tau2Task.Call c = calls.get(j);
            if (c.isRead() && c.tool().equals(m.lookup().tool()) && c.arguments().equals(m.lookup().arguments())) {
                return true;
            }
            if (c.isWrite() && !c.error()) {
                return false;
            }
        }
        return false;
    }

    String text(boolean quick, double seconds) {
        StringBuilder out = new StringBuilder();
        out.append(f("%nτ² retail: %d train tasks%s, %d-fold cross-validation; %s, measured %s in %.0f s%n",
                tasks.size(), quick ? " (quick: every eighth)" : "", folds,
                "stretto learn --habit-only, served by stretto-proxy --flow with the default decider",
                Benchmark.today(), seconds));
        out.append(f("%-8s %6s %7s %8s %8s %8s %10s%n", "fold", "tasks", "reads", "served", "recall", "lookups",
                "precision"));
        for (Map.Entry<Integer, Counts> e : byFold.entrySet()) {
            Counts c = e.getValue();
            long n = served.stream().filter(s -> s.fold() == e.getKey()).count();
            out.append(f("%-8d %6d %7d %8d %7.1f%% %8d %9.1f%%%n", e.getKey() + 1, n, c.reads, c.served, c.recall(),
                    c.lookups, c.precision()));
        }
        out.append(f("%-8s %6d %7d %8d %7.1f%% %8d %9.1f%%%n", "all", served.size(), total.reads, total.served,
                total.recall(), total.lookups, total.precision()));
        out.append(f("reads: the expert's follow-up reads (every read after a session's first call); served: the flow"
                + " had appended the same call since the last write%n"));
        out.append(f("lookups per call: %.2f (%d lookups, %d calls made)%n", callsSent == 0 ? 0.0
                : (double) total.lookups / callsSent, total.lookups, callsSent));
        out.append(f("LLM turns saved: %d of the expert's %d calls (%.1f%%)%n", total.served, expertCalls,
                expertCalls == 0 ? 0.0 : 100.0 * total.served / expertCalls));
        out.append(f("calls that carry lookups: %d, answered in %.1f ms (median) against %.1f ms for the same calls"
                        + " recorded without a flow: %+.1f ms added (median of the differences)%n",
                carryingServed.size(), Benchmark.median(carryingServed), Benchmark.median(carryingPassive),
                Benchmark.median(carryingAdded)));
        out.append(f("other calls: %.1f ms served, %.1f ms passive (medians of %d)%n", Benchmark.median(otherServed),
                Benchmark.median(otherPassive), otherServed.size()));
        out.append(f("%n%-26s %6s %7s %10s %8s %8s%n", "by tool", "reads", "served", "other args", "lookups",
                "precise"));
        byTool.forEach((tool, c) -> out.append(f("%-26s %6d %7d %10d %8d %8d%n", tool, c.reads, c.served,
                c.otherArguments, c.lookups, c.precise)));
        out.append(f("other args: missed though the flow looked the tool up with other arguments since the last write%n"));
        out.append(f("%nwhy the flows handed back (flow logs, numbers as N):%n"));
        handBacks.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(10)
                .forEach(e -> out.append(f("%6d  %s%n", e.getValue(), e.getKey())));
        guards(out);
        return out.toString();
    }

    private void guards(StringBuilder out) {
        Map<String, Boolean> authenticates = new LinkedHashMap<>();
        tasks.forEach(t -> authenticates.put(t.id(), t.authenticates()));
        out.append(f("%nguards (--domain retail --guards) on the expert's writes:%n"));
        for (boolean auth : List.of(true, false)) {
            List<Tau2Bench.Verdict> writes = verdicts.stream().filter(v -> v.kind().equals("expert")
                    && authenticates.get(v.task()) == auth).toList();
            long refused = writes.stream().filter(v -> !v.refusedBy().isEmpty()).count();
            long tau2Failed = writes.stream().filter(v -> !v.refusedBy().isEmpty() && v.tau2Failed()).count();
            out.append(f("  %s: %d writes, %d forwarded, %d refused (%d of them writes τ² fails too)%n",
                    auth ? "tasks whose expert authenticates first" : "tasks whose action list has no authentication",
                    writes.size(), writes.size() - refused, refused, tau2Failed));
            Map<String, Integer> rules = new TreeMap<>();
            writes.stream().filter(v -> !v.refusedBy().isEmpty() && !v.tau2Failed())
                    .forEach(v -> rules.merge(String.join(" + ", v.refusedBy()), 1, Integer::sum));
            rules.forEach((r, n) -> out.append(f("    %s %d write%s τ² makes: %s%n", auth ? "false refusals:" : "refused",
                    n, n == 1 ? "" : "s", r)));
            if (auth) {
                writes.stream().filter(v -> !v.refusedBy().isEmpty() && !v.tau2Failed()).forEach(v -> out.append(
                        f("      task %s %s: %s%n", v.task(), v.tool(), String.join(", ", v.refusedBy()))));
            }
        }
        out.append(f("guards on mutated writes (the policy forbids each):%n"));
        out.append(f("  %-58s %6s %8s %s%n", "mutation (the rule expected to refuse it)", "writes", "refused",
                "by that rule"));
        Map<String, int[]> kinds = new LinkedHashMap<>();
        for (Tau2Bench.Verdict v : verdicts) {
            if (!v.kind().equals("expert")) {
                int[] c = kinds.computeIfAbsent(v.kind() + " (" + v.expectedRule() + ")", k -> new int[3]);
                c[0]++;
                c[1] += v.refusedBy().isEmpty() ? 0 : 1;
                c[2] += v.refusedBy().contains(v.expectedRule()) ? 1 : 0;
            }
        }
        kinds.forEach((k, c) -> out.append(f("  %-58s %6d %8d %6d%n", k, c[0], c[1], c[2])));
    }

    String json() {
        StringBuilder j = new StringBuilder("{");
        j.append(f("\"date\":\"%s\",\"tasks\":%d,\"folds\":%d,", Benchmark.today(), tasks.size(), folds));
        j.append(f("\"reads\":%d,\"served\":%d,\"recall\":%.2f,\"lookups\":%d,\"precise\":%d,\"precision\":%.2f,",
                total.reads, total.served, total.recall(), total.lookups, total.precise, total.precision()));
        j.append(f("\"calls_made\":%d,\"expert_calls\":%d,\"lookups_per_call\":%.3f,\"turns_saved\":%d,",
                callsSent, expertCalls, callsSent == 0 ? 0.0 : (double) total.lookups / callsSent, total.served));
        j.append(f("\"carrying_calls\":%d,\"carrying_ms_p50\":%.2f,\"same_calls_passive_ms_p50\":%.2f,"
                        + "\"added_ms_p50\":%.2f,", carryingServed.size(), Benchmark.median(carryingServed),
                Benchmark.median(carryingPassive), Benchmark.median(carryingAdded)));
        long falseRefusals = verdicts.stream().filter(v -> v.kind().equals("expert") && !v.tau2Failed()
                && !v.refusedBy().isEmpty()).count();
        long mutations = verdicts.stream().filter(v -> !v.kind().equals("expert")).count();
        long mutationsRefused = verdicts.stream().filter(v -> !v.kind().equals("expert") && !v.refusedBy().isEmpty())
                .count();
        j.append(f("\"expert_writes_refused_though_tau2_makes_them\":%d,\"mutated_writes\":%d,"
                + "\"mutated_writes_refused\":%d,", falseRefusals, mutations, mutationsRefused));
        j.append("\"by_tool\":{");
        List<String> parts = new ArrayList<>();
        byTool.forEach((tool, c) -> parts.add(f("\"%s\":{\"reads\":%d,\"served\":%d,\"lookups\":%d,\"precise\":%d}",
                tool, c.reads, c.served, c.lookups, c.precise)));
        j.append(String.join(",", parts)).append("}}\n");
        return j.toString().replace("NaN", "null");
    }

    private static String f(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
