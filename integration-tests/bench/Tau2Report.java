// The τ² benchmark's figures, from the sessions it ran (see Tau2Bench.java; the definitions are in
// docs/flows.md, "The τ² retail benchmark").

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

final class Tau2Report {

    /** How many of the missed reads the text shows. */
    private static final int MISSED_SHOWN = 12;

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

    /** The flows' figures of one variant in one replay. */
    private static final class Flows {
        final Tau2Bench.Variant variant;
        final Tau2Bench.Replay replay;
        final List<Tau2Bench.Served> served;
        final Map<String, Integer> handBacks;
        final Counts total = new Counts();
        final Map<Integer, Counts> byFold = new TreeMap<>();
        final Map<Integer, Integer> tasksByFold = new TreeMap<>();
        final Map<String, Counts> byTool = new TreeMap<>();
        int expertCalls;
        int callsSent;
        final List<Double> carryingServed = new ArrayList<>();
        final List<Double> carryingPassive = new ArrayList<>();
        final List<Double> carryingAdded = new ArrayList<>();
        final List<Double> otherServed = new ArrayList<>();
        final List<Double> otherPassive = new ArrayList<>();
        /** The reads missed of the tools the flows do look up, each with what preceded it. */
        final List<String> missed = new ArrayList<>();

        Flows(Tau2Bench.Variant variant, Tau2Bench.Replay replay, List<Tau2Bench.Served> served,
              Map<String, double[]> passiveMs, Map<String, Integer> handBacks) {
            this.variant = variant;
            this.replay = replay;
            this.served = served;
            this.handBacks = handBacks;
            for (Tau2Bench.Served s : served) {
                count(s, passiveMs.get(s.task().id()));
            }
            byFold.values().forEach(total::add);
        }

        private void count(Tau2Bench.Served s, double[] passive) {
            Counts fold = byFold.computeIfAbsent(s.fold(), k -> new Counts());
            tasksByFold.merge(s.fold(), 1, Integer::sum);
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
                if (s.served().contains(k)) {
                    one.served = 1;
                } else {
                    if (sameToolOtherArguments(s, k)) {
                        one.otherArguments = 1;
                    }
                    missed.add(f("task %s call %d %s %s, after %s; the flow looked up %s", s.task().id(), k, c.tool(),
                            c.arguments(), calls.get(k - 1).tool(), lookupsBefore(s, k)));
                }
                fold.add(one);
                byTool.computeIfAbsent(c.tool(), x -> new Counts()).add(one);
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
                byTool.computeIfAbsent(m.lookup().tool(), x -> new Counts()).add(one);
            }
            for (int j = 0; j < s.sent().size(); j++) {
                int k = s.sent().get(j);
                if (made.stream().anyMatch(m -> m.after() == k)) {
                    carryingServed.add(s.ms().get(j));
                    carryingPassive.add(passive[k]);
                    carryingAdded.add(s.ms().get(j) - passive[k]);
                } else {
                    otherServed.add(s.ms().get(j));
                    otherPassive.add(passive[k]);
                }
            }
        }

        void text(StringBuilder out) {
            out.append(f("%nflows: %s; replay: %s%n", variant.name(), replay.label));
            out.append(f("%-8s %6s %7s %8s %8s %8s %10s%n", "fold", "tasks", "reads", "served", "recall", "lookups",
                    "precision"));
            byFold.forEach((fold, c) -> out.append(f("%-8d %6d %7d %8d %7.1f%% %8d %9.1f%%%n", fold + 1,
                    tasksByFold.get(fold), c.reads, c.served, c.recall(), c.lookups, c.precision())));
            out.append(f("%-8s %6d %7d %8d %7.1f%% %8d %9.1f%%%n", "all", served.size(), total.reads, total.served,
                    total.recall(), total.lookups, total.precision()));
            out.append(f("lookups per call: %.2f (%d lookups, %d calls made)%n", perCall(), total.lookups, callsSent));
            out.append(f("LLM turns saved: %d of the expert's %d calls (%.1f%%)%n", total.served, expertCalls,
                    expertCalls == 0 ? 0.0 : 100.0 * total.served / expertCalls));
            out.append(f("calls that carry lookups: %d, answered in %.1f ms (median) against %.1f ms for the same"
                            + " calls recorded without a flow: %+.1f ms added (median of the differences)%n",
                    carryingServed.size(), Benchmark.median(carryingServed), Benchmark.median(carryingPassive),
                    Benchmark.median(carryingAdded)));
            out.append(f("other calls: %.1f ms served, %.1f ms passive (medians of %d)%n",
                    Benchmark.median(otherServed), Benchmark.median(otherPassive), otherServed.size()));
            out.append(f("%-26s %6s %7s %10s %8s %8s%n", "by tool", "reads", "served", "other args", "lookups",
                    "precise"));
            byTool.forEach((tool, c) -> out.append(f("%-26s %6d %7d %10d %8d %8d%n", tool, c.reads, c.served,
                    c.otherArguments, c.lookups, c.precise)));
            List<String> looked = missed.stream().filter(m -> byTool.entrySet().stream().anyMatch(e ->
                    e.getValue().lookups > 0 && m.contains(" " + e.getKey() + " {"))).toList();
            out.append(f("missed reads of the tools the flows look up: %d%s%n", looked.size(),
                    looked.size() > MISSED_SHOWN ? ", the first " + MISSED_SHOWN : ""));
            looked.stream().limit(MISSED_SHOWN).forEach(m -> out.append("  ")
                    .append(m.length() > 300 ? m.substring(0, 300) + "…" : m).append('\n'));
            out.append(f("why the flows handed back (flow logs, numbers as N):%n"));
            handBacks.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(10)
                    .forEach(e -> out.append(f("%6d  %s%n", e.getValue(), e.getKey())));
        }

        /** What the flow appended since the last write before call {@code k}, tool and arguments. */
        private static String lookupsBefore(Tau2Bench.Served s, int k) {
            int lastWrite = lastWriteBefore(s.task().calls(), k);
            List<String> out = new ArrayList<>();
            for (Tau2Bench.Made m : s.lookups()) {
                if (m.after() < k && m.after() >= lastWrite) {
                    out.add(m.lookup().tool() + " " + m.lookup().arguments());
                }
            }
            return out.isEmpty() ? "nothing" : String.join(", ", out);
        }

        double perCall() {
            return callsSent == 0 ? 0.0 : (double) total.lookups / callsSent;
        }

        String json() {
            List<String> tools = new ArrayList<>();
            byTool.forEach((tool, c) -> tools.add(f("\"%s\":{\"reads\":%d,\"served\":%d,\"lookups\":%d,\"precise\":%d}",
                    tool, c.reads, c.served, c.lookups, c.precise)));
            return f("{\"reads\":%d,\"served\":%d,\"recall\":%.2f,\"lookups\":%d,\"precise\":%d,\"precision\":%.2f,"
                            + "\"calls_made\":%d,\"expert_calls\":%d,\"lookups_per_call\":%.3f,\"turns_saved\":%d,"
                            + "\"carrying_calls\":%d,\"carrying_ms_p50\":%.2f,\"same_calls_passive_ms_p50\":%.2f,"
                            + "\"added_ms_p50\":%.2f,\"by_tool\":{%s}}",
                    total.reads, total.served, total.recall(), total.lookups, total.precise, total.precision(),
                    callsSent, expertCalls, perCall(), total.served, carryingServed.size(),
                    Benchmark.median(carryingServed), Benchmark.median(carryingPassive),
                    Benchmark.median(carryingAdded), String.join(",", tools));
        }
    }

    private final List<Tau2Task> tasks;
    private final int folds;
    private final List<Flows> flows = new ArrayList<>();
    private final List<Tau2Bench.Verdict> verdicts;

    Tau2Report(List<Tau2Task> tasks, int folds, List<Tau2Bench.Served> served, Map<String, double[]> passiveMs,
               List<Tau2Bench.Verdict> verdicts,
               Map<Tau2Bench.Variant, Map<Tau2Bench.Replay, Map<String, Integer>>> handBacks) {
        this.tasks = tasks;
        this.folds = folds;
        this.verdicts = verdicts;
        handBacks.forEach((variant, byReplay) -> byReplay.forEach((replay, reasons) -> flows.add(new Flows(variant,
                replay, served.stream().filter(s -> s.variant() == variant && s.replay() == replay).toList(),
                passiveMs, reasons))));
    }

    /** Each variant's headline figures side by side, in the replay of every expert call. */
    private void compared(StringBuilder out) {
        out.append(f("%nthe variants compared (replay: %s):%n", Tau2Bench.Replay.EVERY_CALL.label));
        out.append(f("  %-36s %7s %10s %8s %8s %13s %12s%n", "flows", "recall", "precision", "lookups", "per call",
                "turns saved", "added (p50)"));
        for (Flows fl : flows) {
            if (fl.replay == Tau2Bench.Replay.EVERY_CALL) {
                out.append(f("  %-36s %6.1f%% %9.1f%% %8d %8.2f %6d (%4.1f%%) %+9.0f ms%n", fl.variant.name(),
                        fl.total.recall(), fl.total.precision(), fl.total.lookups, fl.perCall(), fl.total.served,
                        fl.expertCalls == 0 ? 0.0 : 100.0 * fl.total.served / fl.expertCalls,
                        Benchmark.median(fl.carryingAdded)));
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
                tasks.size(), quick ? " (quick: every tenth)" : "", folds,
                "flows learned by stretto learn on the other folds, served by stretto-proxy --flow with the default"
                        + " decider",
                Benchmark.today(), seconds));
        out.append(f("reads: the expert's follow-up reads (after a session's first call); served: the flow had"
                + " appended the same call since the last write; precise: a lookup the expert makes later, before its"
                + " next write; other args: missed, though the flow looked the tool up with other arguments%n"));
        compared(out);
        flows.forEach(fl -> fl.text(out));
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
                        f("      task %s %s: %s%n", v.task(), v.tool(), v.reason())));
            }
        }
        out.append(f("guards on mutated writes (the policy forbids each):%n"));
        out.append(f("  %-58s %6s %8s %s%n", "mutation (the rule expected to refuse it)", "writes", "refused",
                "by that rule"));
        mutations().forEach((k, c) -> out.append(f("  %-58s %6d %8d %6d%n", k, c[0], c[1], c[2])));
    }

    /** For each kind of mutation: how many were sent, refused, refused by the rule expected. */
    private Map<String, int[]> mutations() {
        Map<String, int[]> kinds = new LinkedHashMap<>();
        for (Tau2Bench.Verdict v : verdicts) {
            if (!v.kind().equals("expert")) {
                int[] c = kinds.computeIfAbsent(v.kind() + " (" + v.expectedRule() + ")", k -> new int[3]);
                c[0]++;
                c[1] += v.refusedBy().isEmpty() ? 0 : 1;
                c[2] += v.refusedBy().contains(v.expectedRule()) ? 1 : 0;
            }
        }
        return kinds;
    }

    String json() {
        Map<String, List<String>> byVariant = new LinkedHashMap<>();
        flows.forEach(fl -> byVariant.computeIfAbsent(fl.variant.name(), k -> new ArrayList<>())
                .add(f("\"%s\":%s", fl.replay.name().toLowerCase(Locale.ROOT), fl.json())));
        List<String> replays = new ArrayList<>();
        byVariant.forEach((name, json) -> replays.add(f("\"%s\":{%s}", name, String.join(",", json))));
        long falseRefusals = verdicts.stream().filter(v -> v.kind().equals("expert") && !v.tau2Failed()
                && !v.refusedBy().isEmpty() && tasks.stream().anyMatch(t -> t.id().equals(v.task()) && t.authenticates()))
                .count();
        List<String> kinds = new ArrayList<>();
        mutations().forEach((k, c) -> kinds.add(f("\"%s\":{\"writes\":%d,\"refused\":%d,\"by_rule\":%d}",
                k.replace("\"", ""), c[0], c[1], c[2])));
        return f("{\"date\":\"%s\",\"tasks\":%d,\"folds\":%d,\"flows\":{%s},\"false_refusals\":%d,"
                        + "\"mutated_writes\":{%s}}%n", Benchmark.today(), tasks.size(), folds,
                String.join(",", replays), falseRefusals, String.join(",", kinds)).replace("NaN", "null");
    }

    private static String f(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
