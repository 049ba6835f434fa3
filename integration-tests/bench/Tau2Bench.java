// The τ² retail benchmark (bin/bench --tau2; docs/flows.md, "The τ² retail benchmark").
//
// Every train task of τ²-bench's retail domain (testdata/tau2-retail) is a real agent's session:
// its expert's calls, replayed one per LLM turn (Tau2Host) through stretto-proxy in front of
// stretto-mcp-demo --world tau2-retail, which serves τ²'s tools on a fresh copy of the database.
// Three passes, each checking every answer against τ²'s own (goldens.jsonl):
//   1. record: every task through the passive proxy with --record;
//   2. flows: k-fold cross-validation; for each fold, `stretto learn --habit-only` on the other
//      folds' recordings, then each held-out task through `stretto-proxy --flow` (the default
//      decider), the host skipping an expert read the flow already appended;
//   3. guards: every task through `--domain retail --guards`, each expert write with the mutated
//      writes the policy forbids sent before it (another user's order, user id or payment
//      method; a reason not accepted; the write before any authentication), each of which must
//      be refused.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

final class Tau2Bench {

    /**
     * @param quick      a subset of the tasks (every tenth) and two folds, and only the replay of
     *                   every call: checks the harness and prints the figures
     * @param folds      the folds of the cross-validation
     * @param parallel   sessions run at once
     * @param lookupCost the cost of a wasted lookup the tuned flows are learned with
     * @param keep       where to leave the recordings, flows and served sessions, or null to delete them
     * @param json       where the figures go as JSON
     */
    record Options(boolean quick, int folds, int parallel, double lookupCost, Path keep, Path json) {
    }

    /**
     * One way of learning and serving flows, all measured in the same run.
     *
     * @param name         how the report names it
     * @param conversation whether the sessions are recorded and served with the customer's words
     *                     ({@code --context})
     * @param learn        what {@code stretto learn} is given besides the sessions, domain and file
     * @param bothReplays  whether its served tasks are also replayed taking the appended results
     */
    record Variant(String name, boolean conversation, List<String> learn, boolean bothReplays) {
        String dir() {
            return name.replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        }
    }

    /** How the host replays a task served with a flow. */
    enum Replay {
        /** Every expert call is made; a read the flow appended before counts as served. */
        EVERY_CALL("every expert call made"),
        /** A read the flow appended before is not made: the agent takes the appended result. */
        TAKES_LOOKUPS("served reads not made");

        final String label;

        Replay(String label) {
            this.label = label;
        }
    }

    /**
     * The variants: the current flows first, then the conversation alone, the thresholds per
     * lookup by what the customer said, and last those with values the customer said bound too.
     */
    static List<Variant> variants(double lookupCost) {
        String cost = BigDecimal.valueOf(lookupCost).stripTrailingZeros().toPlainString();
        List<String> perLookup = List.of("--habit-only", "--lookup-cost", cost, "--per-lookup");
        List<String> bindSaid = new ArrayList<>(perLookup);
        bindSaid.add("--bind-said");
        return List.of(
                new Variant("habit-only", false, List.of("--habit-only"), true),
                new Variant("habit-only, conversation", true, List.of("--habit-only"), false),
                new Variant("--lookup-cost " + cost + " --per-lookup, conversation", true, perLookup, true),
                new Variant("--lookup-cost " + cost + " --per-lookup --bind-said, conversation", true, bindSaid, true));
    }

    /** A lookup the flow made: the call (by its index in the expert's list) whose answer carried it. */
    record Made(int after, Tau2Host.Lookup lookup) {
    }

    /**
     * One held-out task served with a flow.
     *
     * @param variant how the flow was learned and served
     * @param sent    the expert's calls the host made, by index
     * @param ms      their round trips
     * @param served  the expert's reads the flow had appended before (not made under {@link Replay#TAKES_LOOKUPS})
     * @param lookups every lookup the flow appended, in order
     */
    record Served(Variant variant, Replay replay, Tau2Task task, int fold, List<Integer> sent, List<Double> ms,
                  List<Integer> served, List<Made> lookups) {
    }

    /**
     * A write's verdict: the expert's own ({@code kind} "expert") or a mutation of it.
     *
     * @param refusedBy the rules that refused it, empty when it was forwarded
     * @param reason    what the refusal told the agent after {@code nothing changed: }, empty when forwarded
     */
    record Verdict(String task, String kind, String tool, String expectedRule, boolean tau2Failed,
                   List<String> refusedBy, String reason) {
    }

    private final Path root;
    private final Options o;
    private final Path work;
    private final List<String> demo;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, double[]> passiveMs = Collections.synchronizedMap(new LinkedHashMap<>());

    private Tau2Bench(Path root, Options o, Path work) {
        this.root = root;
        this.o = o;
        this.work = work;
        Path data = root.resolve("testdata/tau2-retail");
        this.demo = List.of(root.resolve("bin/stretto-mcp-demo").toString(), "--world", "tau2-retail", "--db",
                data.resolve("db.json").toString());
    }

    static void run(Path root, Options o) throws Exception {
        if (o.keep() != null) {
            new Tau2Bench(root, o, Files.createDirectories(o.keep())).run();
            System.err.println("tau2: the recordings, flows and served sessions are in " + o.keep());
            return;
        }
        Path work = Files.createTempDirectory("stretto-bench-tau2");
        try {
            new Tau2Bench(root, o, work).run();
        } finally {
            Benchmark.emptyDirectory(work);
            Files.deleteIfExists(work);
        }
    }

    private void run() throws Exception {
        long t0 = System.nanoTime();
        Path data = root.resolve("testdata/tau2-retail");
        List<Tau2Task> all = Tau2Task.readAll(data);
        List<Tau2Task> tasks = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (!o.quick() || i % 10 == 0) {
                tasks.add(all.get(i));
            }
        }
        int folds = Math.min(o.folds(), tasks.size());
        System.err.printf(Locale.ROOT, "tau2: %d tasks, %d folds, %d sessions at once%n", tasks.size(), folds,
                o.parallel());

        List<Variant> ways = variants(o.lookupCost());
        // The quick run: the current flows and the thresholds per lookup, which between them take every path.
        List<Variant> variants = o.quick() ? List.of(ways.getFirst(), ways.getLast()) : ways;
        Map<Boolean, Map<String, Path>> recordings = new LinkedHashMap<>();
        for (boolean conversation : List.of(false, true)) {
            recordings.put(conversation, recordAll(tasks, conversation));
            System.err.printf(Locale.ROOT, "tau2: recorded %d sessions%s (%.0f s)%n", tasks.size(),
                    conversation ? " with the conversation" : "", (System.nanoTime() - t0) / 1e9);
        }

        List<Served> served = Collections.synchronizedList(new ArrayList<>());
        Map<Variant, Map<Replay, Map<String, Integer>>> handBacks = new LinkedHashMap<>();
        for (Variant v : variants) {
            Path dir = work.resolve(v.dir());
            Map<String, Path> logs = recordings.get(v.conversation());
            for (int f = 0; f < folds; f++) {
                Path train = Files.createDirectories(dir.resolve("fold-" + f + "/train"));
                List<Tau2Task> heldOut = new ArrayList<>();
                for (int i = 0; i < tasks.size(); i++) {
                    Tau2Task t = tasks.get(i);
                    if (i % folds == f) {
                        heldOut.add(t);
                    } else {
                        copyInTaskOrder(logs.get(t.id()), i, train);
                    }
                }
                Path flow = dir.resolve("fold-" + f + "/retail.flow.json");
                learn(v, train, flow);
                Path out = Files.createDirectories(dir.resolve("fold-" + f + "/served"));
                int fold = f;
                for (Replay replay : replays(v)) {
                    parallel(heldOut, t -> served.add(serve(v, replay, t, fold, flow, out)));
                }
            }
            Map<Replay, Map<String, Integer>> reasons = new LinkedHashMap<>();
            for (Replay replay : replays(v)) {
                reasons.put(replay, handBacks(dir, folds, replay));
            }
            handBacks.put(v, reasons);
            System.err.printf(Locale.ROOT, "tau2: %s: %d folds learned and served (%.0f s)%n", v.name(), folds,
                    (System.nanoTime() - t0) / 1e9);
        }

        List<Verdict> verdicts = Collections.synchronizedList(new ArrayList<>());
        Tau2Db db = Tau2Db.read(data.resolve("db.json"));
        parallel(tasks, t -> verdicts.addAll(guard(t, db)));
        System.err.printf(Locale.ROOT, "tau2: guards checked (%.0f s)%n", (System.nanoTime() - t0) / 1e9);

        Tau2Report report = new Tau2Report(tasks, folds, served, passiveMs, verdicts, handBacks);
        System.out.print(report.text(o.quick(), (System.nanoTime() - t0) / 1e9));
        Files.createDirectories(o.json().getParent());
        Files.writeString(o.json(), report.json());
        System.out.println("the figures as JSON: " + o.json());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the τ² benchmark failed:\n  " + String.join("\n  ", problems));
        }
    }

    private List<Replay> replays(Variant v) {
        return o.quick() || !v.bothReplays() ? List.of(Replay.EVERY_CALL) : List.of(Replay.values());
    }

    @FunctionalInterface
    private interface TaskRun {
        void run(Tau2Task t) throws Exception;
    }

    private void parallel(List<Tau2Task> tasks, TaskRun body) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(o.parallel())) {
            List<Future<?>> done = new ArrayList<>();
            for (Tau2Task t : tasks) {
                done.add(pool.submit(() -> {
                    body.run(t);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }

    private List<String> proxy(String... options) {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("bin/stretto-proxy").toString());
        command.addAll(List.of(options));
        command.add("--");
        command.addAll(demo);
        return command;
    }

    /** Compares an answer with τ²'s; a difference is a failure of the benchmark. */
    private void check(Tau2Task t, int k, Tau2Host.Answer a, String pass) {
        Tau2Task.Call c = t.calls().get(k);
        if (!a.text().equals(c.text()) || a.error() != c.error()) {
            problems.add(pass + ": task " + t.id() + " call " + k + " " + c.tool() + " answered " + cut(a.text())
                    + " (error " + a.error() + "), τ² " + cut(c.text()) + " (error " + c.error() + ")");
        }
    }

    private static String cut(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    // --- 1. record ------------------------------------------------------------------------

    /**
     * Copies a recorded session into a training directory under a session id that sorts by the
     * task's place in the train split. Learning reads sessions in the order of their ids, which
     * are their start times, and the recordings start several at a time in no fixed order: the
     * order decides the folds that tuning replays and the habit's fit, so without this the
     * same recordings would learn different flows from one run to the next.
     */
    private static void copyInTaskOrder(Path log, int task, Path train) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        ObjectNode header = (ObjectNode) Tau2Task.JSON.readTree(lines.getFirst());
        String session = String.format(Locale.ROOT, "task-%03d-%s", task, header.path("session").asText());
        header.put("session", session);
        lines.set(0, Tau2Task.JSON.writeValueAsString(header));
        Files.write(train.resolve(session + ".jsonl"), lines, StandardCharsets.UTF_8);
    }

    /** Every task through the proxy with --record (and the conversation): each task's log. */
    private Map<String, Path> recordAll(List<Tau2Task> tasks, boolean conversation) throws Exception {
        Path dir = Files.createDirectories(work.resolve(conversation ? "recorded-conversation" : "recorded"));
        parallel(tasks, t -> record(t, dir, conversation));
        Map<String, Path> logs = new LinkedHashMap<>();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                String line = Files.readAllLines(f).getFirst();
                String task = Tau2Task.JSON.readTree(line).path("host_session").asText().replace("tau2-record-", "");
                logs.put(task, f);
            }
        }
        if (logs.size() != tasks.size()) {
            throw new IllegalStateException("recorded " + logs.size() + " sessions of " + tasks.size() + " in " + dir);
        }
        return logs;
    }

    private void record(Tau2Task t, Path dir, boolean conversation) throws Exception {
        double[] ms = new double[t.calls().size()];
        List<String> options = new ArrayList<>(List.of("--record", dir.toString()));
        Path context = conversation ? conversation(t, dir) : null;
        if (context != null) {
            options.addAll(List.of("--context", context.toString()));
        }
        try (Tau2Host host = new Tau2Host(proxy(options.toArray(String[]::new)), "tau2-record-" + t.id())) {
            for (int k = 0; k < t.calls().size(); k++) {
                Tau2Task.Call c = t.calls().get(k);
                Tau2Host.Answer a = host.call(c.tool(), c.arguments());
                check(t, k, a, "record");
                ms[k] = a.ms();
            }
            host.end();
        }
        if (!conversation) {
            passiveMs.put(t.id(), ms);
        }
    }

    /**
     * The conversation file of one session: the customer's first message, what τ²'s user
     * simulator is told it knows and why it calls, written before the first call.
     */
    private static Path conversation(Tau2Task t, Path dir) throws Exception {
        Path file = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-context"))
                .resolve("task-" + t.id() + "-" + System.nanoTime() + ".jsonl");
        ObjectNode line = Tau2Task.JSON.createObjectNode().put("role", "user").put("content", t.customerSays());
        Files.writeString(file, line + "\n");
        return file;
    }

    // --- 2. flows ---------------------------------------------------------------------------

    private void learn(Variant v, Path sessions, Path flow) throws Exception {
        Path log = flow.resolveSibling(flow.getFileName() + ".learn.txt");
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/stretto").toString(), "learn", "--sessions",
                sessions.toString(), "--domain", "retail", "--out", flow.toString()));
        command.addAll(v.learn());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0 || !Files.exists(flow)) {
            throw new IllegalStateException("stretto learn failed with status " + p.exitValue() + ": "
                    + Files.readString(log));
        }
    }

    private Served serve(Variant v, Replay replay, Tau2Task t, int fold, Path flow, Path dir) throws Exception {
        List<Integer> sent = new ArrayList<>();
        List<Double> ms = new ArrayList<>();
        List<Integer> served = new ArrayList<>();
        List<Made> made = new ArrayList<>();
        // Only τ²'s reads may be looked up, as its policy says.
        List<String> options = new ArrayList<>(List.of("--flow", flow.toString(), "--record", dir.toString(),
                "--flow-tools", String.join(",", new java.util.TreeSet<>(Tau2Task.READS))));
        if (v.conversation()) {
            options.addAll(List.of("--context", conversation(t, dir).toString()));
        }
        try (Tau2Host host = new Tau2Host(proxy(options.toArray(String[]::new)),
                "tau2-serve-" + replay.name().toLowerCase(Locale.ROOT) + "-" + t.id())) {
            int lastWrite = -1;
            for (int k = 0; k < t.calls().size(); k++) {
                Tau2Task.Call c = t.calls().get(k);
                if (k > 0 && c.isRead() && servedBefore(made, lastWrite, c)) {
                    served.add(k);
                    if (replay == Replay.TAKES_LOOKUPS) {
                        // The agent has this result already: it makes no call and spends no turn on it.
                        continue;
                    }
                }
                Tau2Host.Answer a = host.call(c.tool(), c.arguments());
                check(t, k, a, "flow");
                sent.add(k);
                ms.add(a.ms());
                for (Tau2Host.Lookup l : a.lookups()) {
                    if (!Tau2Task.READS.contains(l.tool())) {
                        problems.add(v.name() + ": task " + t.id() + " call " + k + ": the flow looked up "
                                + l.tool() + ", which is not one of τ²'s reads");
                    }
                    made.add(new Made(k, l));
                }
                if (c.isWrite() && !a.error()) {
                    lastWrite = k;
                }
            }
            host.end();
        }
        return new Served(v, replay, t, fold, sent, ms, served, made);
    }

    /** Whether the flow appended this read to an answer since the session's last successful write. */
    static boolean servedBefore(List<Made> made, int lastWrite, Tau2Task.Call c) {
        for (Made m : made) {
            if (m.after() >= lastWrite && m.lookup().tool().equals(c.tool()) && m.lookup().arguments().equals(c.arguments())) {
                return true;
            }
        }
        return false;
    }

    private static final Pattern NUMBER = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    /** The flow logs' reasons for handing back in one replay, numbers left out, with how often each was given. */
    private Map<String, Integer> handBacks(Path dir, int folds, Replay replay) throws Exception {
        Map<String, Integer> reasons = new TreeMap<>();
        String session = "tau2-serve-" + replay.name().toLowerCase(Locale.ROOT) + "-";
        for (int f = 0; f < folds; f++) {
            try (var files = Files.list(dir.resolve("fold-" + f + "/served"))) {
                for (Path p : files.filter(x -> x.toString().endsWith(".flow.jsonl")).toList()) {
                    Path log = p.resolveSibling(p.getFileName().toString().replace(".flow.jsonl", ".jsonl"));
                    String header = Files.readAllLines(log).getFirst();
                    if (!Tau2Task.JSON.readTree(header).path("host_session").asText().startsWith(session)) {
                        continue;
                    }
                    for (String line : Files.readAllLines(p)) {
                        JsonNode d = Tau2Task.JSON.readTree(line);
                        if ("hand_back".equals(d.path("action").asText())) {
                            reasons.merge(NUMBER.matcher(d.path("reason").asText()).replaceAll("N"), 1, Integer::sum);
                        }
                    }
                }
            }
        }
        return reasons;
    }

    // --- 3. guards ----------------------------------------------------------------------------

    private List<Verdict> guard(Tau2Task t, Tau2Db db) throws Exception {
        List<Verdict> out = new ArrayList<>();
        try (Tau2Host host = new Tau2Host(proxy("--domain", "retail", "--guards"), "tau2-guards-" + t.id())) {
            host.noGap();
            if (t.authenticates()) {
                // Each of the task's writes before anyone was authenticated.
                for (Tau2Task.Call c : t.calls()) {
                    if (c.isWrite()) {
                        out.add(mutated(host, t, "no authentication", c.tool(), c.arguments(), "retail.authenticated"));
                    }
                }
            }
            String user = null;
            java.util.Set<String> othersLookedUp = new java.util.HashSet<>();
            // A write let through, or refused, leaves the database as τ² would not: later answers differ.
            boolean diverged = out.stream().anyMatch(v -> v.refusedBy().isEmpty());
            for (int k = 0; k < t.calls().size(); k++) {
                Tau2Task.Call c = t.calls().get(k);
                if (c.isWrite() && user != null) {
                    String status = c.tool().startsWith("return_") || c.tool().startsWith("exchange_") ? "delivered"
                            : "pending";
                    Tau2Db.Order other = db.otherOrder(user, status);
                    if (c.arguments().has("order_id")) {
                        host.call("get_order_details", object("order_id", other.id()));
                        out.add(mutated(host, t, "another user's order", c.tool(),
                                with(c.arguments(), "order_id", other.id()), "retail.own_order"));
                    }
                    if (c.arguments().has("payment_method_id")) {
                        if (othersLookedUp.add(other.user())) {
                            host.call("get_user_details", object("user_id", other.user()));
                        }
                        String method = db.methodLike(other.user(), c.arguments().get("payment_method_id").textValue());
                        out.add(mutated(host, t, "another user's payment method", c.tool(),
                                with(c.arguments(), "payment_method_id", method), "retail.own_payment"));
                    }
                    if (c.tool().equals("modify_user_address")) {
                        out.add(mutated(host, t, "another user's user id", c.tool(),
                                with(c.arguments(), "user_id", other.user()), "retail.own_user"));
                    }
                    if (c.tool().equals("cancel_pending_order")) {
                        out.add(mutated(host, t, "a reason not accepted", c.tool(),
                                with(c.arguments(), "reason", "found it cheaper elsewhere"), "retail.cancel_reason"));
                    }
                }
                diverged |= out.stream().anyMatch(v -> !v.kind().equals("expert") && v.refusedBy().isEmpty());
                Tau2Host.Answer a = host.call(c.tool(), c.arguments());
                if (c.isWrite()) {
                    out.add(new Verdict(t.id(), "expert", c.tool(), null, c.error(), a.refusedBy(), a.reason()));
                    diverged |= a.refused() && !c.error();
                }
                if (!diverged && !a.refused()) {
                    check(t, k, a, "guards");
                }
                if (user == null && c.tool().startsWith("find_user_id_by_") && !a.error()) {
                    user = a.text();
                }
            }
            host.end();
        }
        return out;
    }

    private Verdict mutated(Tau2Host host, Tau2Task t, String kind, String tool, ObjectNode arguments, String rule)
            throws Exception {
        Tau2Host.Answer a = host.call(tool, arguments);
        if (!a.refused()) {
            problems.add("guards: task " + t.id() + ": " + kind + " was not refused: " + tool + " " + arguments
                    + " answered " + cut(a.text()));
        }
        return new Verdict(t.id(), kind, tool, rule, false, a.refusedBy(), a.reason());
    }

    private static ObjectNode object(String key, String value) {
        return Tau2Task.JSON.createObjectNode().put(key, value);
    }

    private static ObjectNode with(ObjectNode arguments, String key, String value) {
        ObjectNode copy = arguments.deepCopy();
        copy.put(key, value);
        return copy;
    }
}
