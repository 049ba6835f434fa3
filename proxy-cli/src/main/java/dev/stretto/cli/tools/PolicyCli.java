package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.Policy;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyException;
import dev.stretto.proxy.PolicyProblem;
import dev.stretto.proxy.PolicyReplay;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stretto policy check FILE} and {@code stretto policy test FILE LOG|DIR...}: a policy
 * checked with every problem at its line, and recorded sessions replayed through it, with what
 * each rule and budget would have done.
 */
final class PolicyCli {

    static final String COMMAND = "policy";

    static final String HELP = """
            Usage: stretto policy check FILE
                   stretto policy test [--json] FILE LOG|DIR...

            check   reads the policy FILE (JSON, or YAML for .yaml and .yml) as stretto-proxy
                    --policy does, and prints what it holds: its rules and budgets with their
                    actions, pinning, the server's requests it denies, the approvals' timeout.
                    Every problem is printed, each as FILE:LINE:COLUMN: what is wrong (unknown
                    keys, values of the wrong kind, globs, regexes and JSON pointers that are
                    not valid, rules without an id or an action).
            test    replays each recorded session (a log, or the logs directly in a directory)
                    through the policy, as the proxy would have applied it: the listings
                    (tools hidden, tools changed since they were first listed), each tool call
                    against the session as it stood (budgets spent by the calls before it that
                    the policy lets through, an ask counted as approved), the server's own
                    requests. Prints each verdict: when, the call and its arguments, the
                    action and the rule that decided, the other rules that matched; then a
                    table of how many calls each rule and budget matched and decided.

            Options:
              --json       test: one JSON object per verdict instead (session, t_ms and the
                           verdict's fields: kind, name, id, arguments, action, rule,
                           matched, reason)
              -h, --help   show this help

            The format: docs/policy.md.

            Exit status:
              0  the policy is valid (check), the sessions were replayed (test)
              1  the policy has problems (each on stderr: stretto: FILE:LINE:COLUMN: ...), or
                 a file cannot be read or is not a session log
              2  usage error
            """;

    private PolicyCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--help", "-h", "--json"), Set.of());
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        if (a.operands().isEmpty()) {
            throw new UsageException(COMMAND, "give check FILE or test FILE LOG|DIR...");
        }
        String verb = a.operands().getFirst();
        List<String> rest = a.operands().subList(1, a.operands().size());
        return switch (verb) {
            case "check" -> {
                if (rest.size() != 1) {
                    throw new UsageException(COMMAND, "check takes one FILE, got " + rest.size());
                }
                if (a.has("--json")) {
                    throw new UsageException(COMMAND, "--json is for test");
                }
                Policy policy = read(Path.of(rest.getFirst()), err);
                if (policy == null) {
                    yield Stretto.EXIT_BAD_INPUT;
                }
                describe(policy, out);
                yield Stretto.EXIT_OK;
            }
            case "test" -> {
                if (rest.size() < 2) {
                    throw new UsageException(COMMAND, "test takes the policy FILE and at least one LOG or DIR");
                }
                Policy policy = read(Path.of(rest.getFirst()), err);
                if (policy == null) {
                    yield Stretto.EXIT_BAD_INPUT;
                }
                LogFiles files = new LogFiles(err);
                Report report = new Report(policy, out, a.has("--json"));
                for (String operand : rest.subList(1, rest.size())) {
                    Path p = Path.of(operand);
                    List<SessionLog> logs = Files.isDirectory(p) ? files.readDirectly(p) : List.of(files.read(p));
                    for (SessionLog log : logs) {
                        report.session(PolicyReplay.of(log, policy));
                    }
                }
                report.summary();
                yield Stretto.EXIT_OK;
            }
            default -> throw new UsageException(COMMAND, "unknown subcommand '" + verb + "' (check or test)");
        };
    }

    /** The policy, or null after its problems are on {@code err}. */
    private static Policy read(Path file, PrintStream err) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IOException(file + ": is a directory, not a policy");
        }
        try {
            return Policy.read(file);
        } catch (PolicyException e) {
            for (PolicyProblem p : e.problems()) {
                err.println("stretto: " + p);
            }
            return null;
        }
    }

    private static void describe(Policy policy, PrintStream out) {
        Map<String, PolicyAction> actions = policy.actions();
        List<String> rules = new ArrayList<>();
        List<String> budgets = new ArrayList<>();
        int ruleCount = policy.document().path("rules").size();
        int i = 0;
        for (Map.Entry<String, PolicyAction> e : actions.entrySet()) {
            (i++ < ruleCount ? rules : budgets).add(e.getKey() + " " + e.getValue().wireName());
        }
        out.println(policy.source() + ": a valid policy");
        out.println("  rules    " + (rules.isEmpty() ? "none" : String.join(", ", rules)));
        out.println("  budgets  " + (budgets.isEmpty() ? "none" : String.join(", ", budgets)));
        out.println("  pinning  " + policy.pinning());
        List<String> denied = policy.serverRequests().entrySet().stream()
                .filter(e -> e.getValue() == PolicyAction.DENY).map(Map.Entry::getKey).toList();
        out.println("  server requests denied  " + (denied.isEmpty() ? "none" : String.join(", ", denied)));
        if (policy.asks()) {
            out.println("  asks wait  " + policy.askTimeout().toMillis() / 1000.0 + " s, then deny");
        }
    }

    /** The replays' verdicts and the table of rules. */
    private static final class Report {
        private static final String[] HEADINGS = {"RULE", "ACTION", "MATCHED", "DECIDED"};
        private static final boolean[] RIGHT = {false, false, true, true};

        private final Policy policy;
        private final PrintStream out;
        private final boolean json;
        // Per rule or budget id (and pinning, server_requests): {matched, decided}.
        private final Map<String, int[]> counts = new LinkedHashMap<>();

        Report(Policy policy, PrintStream out, boolean json) {
            this.policy = policy;
            this.out = out;
            this.json = json;
            policy.actions().keySet().forEach(id -> counts.put(id, new int[2]));
        }

        void session(PolicyReplay replay) {
            if (!json) {
                out.println(replay.session() + "  (" + replay.calls() + (replay.calls() == 1 ? " call" : " calls") + ")");
                if (replay.verdicts().isEmpty()) {
                    out.println("  nothing the policy acts on");
                }
            }
            for (PolicyVerdict v : replay.verdicts()) {
                for (String m : v.matched()) {
                    counts.computeIfAbsent(m, k -> new int[2])[0]++;
                }
                if (v.rule() != null && v.action() != PolicyAction.ALLOW) {
                    counts.computeIfAbsent(v.rule(), k -> new int[2])[1]++;
                }
                if (json) {
                    ObjectNode line = v.toJson();
                    ObjectNode o = line.objectNode();
                    o.put("session", replay.session());
                    o.put("t_ms", v.tMs());
                    o.setAll(line);
                    out.println(CanonicalJson.write(o));
                } else {
                    out.println(text(v));
                }
            }
            if (!json) {
                out.println();
            }
        }

        private static String text(PolicyVerdict v) {
            StringBuilder b = new StringBuilder(String.format("%7d ms  ", v.tMs()));
            switch (v.kind()) {
                case CALL -> b.append(v.name()).append(' ').append(TimelinePrinter.cut(CanonicalJson.write(v.arguments())))
                        .append("  id ").append(v.id());
                case LISTING -> b.append("tools/list: ").append(v.name());
                case PINNING -> b.append("tools/list: ").append(v.name()).append(" changed");
                case SERVER_REQUEST -> b.append("the server's ").append(v.name()).append("  id ").append(v.id());
            }
            b.append("\n             -> ").append(word(v)).append(v.rule() == null ? "" : " (" + v.rule() + ")");
            if (v.reason() != null) {
                b.append(": ").append(v.reason());
            }
            List<String> also = v.matched().stream().filter(m -> !m.equals(v.rule())).toList();
            if (!also.isEmpty()) {
                b.append("; also matched: ").append(String.join(", ", also));
            }
            return b.toString();
        }

        private static String word(PolicyVerdict v) {
            return switch (v.action()) {
                case ALLOW -> "allowed";
                case LOG -> "logged";
                case ASK -> "would ask";
                case DENY -> "REFUSED";
                case HIDE -> v.kind() == PolicyVerdict.Kind.LISTING ? "HIDDEN" : "REFUSED, hidden";
            };
        }

        void summary() {
            if (json) {
                return;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(HEADINGS);
            Map<String, PolicyAction> actions = policy.actions();
            for (Map.Entry<String, int[]> e : counts.entrySet()) {
                PolicyAction a = actions.get(e.getKey());
                rows.add(new String[] {e.getKey(), a == null ? "-" : a.wireName(), Integer.toString(e.getValue()[0]),
                        Integer.toString(e.getValue()[1])});
            }
            TextTable.print(out, rows, RIGHT);
        }
    }
}
