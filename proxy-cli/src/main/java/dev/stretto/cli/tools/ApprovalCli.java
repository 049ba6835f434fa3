package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.Approvals;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.PendingApproval;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code stretto pending [DIR]}, {@code stretto approve ID} and {@code stretto deny ID}: the
 * calls a policy holds for a person, listed and decided through the files beside their
 * sessions' logs.
 */
final class ApprovalCli {

    static final Set<String> COMMANDS = Set.of("pending", "approve", "deny");

    /** How long approve and deny wait for the proxy to take the decision. */
    private static final Duration TAKE_WAIT = Duration.ofSeconds(3);

    private static final String WHERE = """
            The calls wait in files beside their session's log (<session>.approvals/ in the
            --record DIR), or under ~/.stretto/approvals for a session that is not recorded.
            DIR (default ~/.stretto) is searched eight directories deep.
            """;

    static final String PENDING_HELP = """
            Usage: stretto pending [--json] [DIR]

            Lists the calls a policy holds until a person approves or denies them (rules and
            budgets with action ask), oldest first, one a line: its ID, its session, the tool
            and the arguments, then the rule that asks and the seconds left before the call
            is denied. Answer one with stretto approve ID or stretto deny ID.

            """ + WHERE + """

            Options:
              --json       one JSON object per call instead (id, session, tool, arguments,
                           rule, reason, asked_unix_ms, deadline_unix_ms)
              -h, --help   show this help

            Exit status: 0 (also when nothing waits: stderr says so), 1 when DIR cannot be
            read, 2 for a usage error.
            """;

    static final String APPROVE_HELP = """
            Usage: stretto approve [--dir DIR] ID

            Approves the call ID that a policy holds (see stretto pending): its proxy sends
            it to the server within a quarter of a second, and the agent gets the server's
            answer. Prints the call approved.

            """ + WHERE + """

            Options:
              --dir DIR    where to look (default ~/.stretto)
              -h, --help   show this help

            Exit status: 0 when approved, 1 when no call waits with that ID (it was
            decided, timed out, or its session ended), 2 for a usage error.
            """;

    static final String DENY_HELP = """
            Usage: stretto deny [--dir DIR] [--reason TEXT] ID

            Denies the call ID that a policy holds (see stretto pending): the server never
            sees it, and the agent is told "Refused by the policy check, so TOOL was not run
            and nothing changed: a person denied it: TEXT (policy rule RULE)."

            """ + WHERE + """

            Options:
              --reason TEXT  why, as the agent is told it (one line)
              --dir DIR      where to look (default ~/.stretto)
              -h, --help     show this help

            Exit status: 0 when denied, 1 when no call waits with that ID, 2 for a usage error.
            """;

    private ApprovalCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        String command = args[0];
        return switch (command) {
            case "pending" -> pending(args, out, err, env);
            case "approve" -> decide(args, out, err, env, true);
            default -> decide(args, out, err, env, false);
        };
    }

    private static Path directory(String command, String given, Map<String, String> env) throws UsageException {
        if (given != null) {
            return Path.of(given);
        }
        try {
            return Approvals.defaultDirectory(HostEnvironment.of(env, -1));
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }

    private static int pending(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse("pending", args, 1, Set.of("--help", "-h", "--json"), Set.of());
        if (Stretto.helpAsked(a, out, PENDING_HELP)) {
            return Stretto.EXIT_OK;
        }
        if (a.operands().size() > 1) {
            throw new UsageException("pending", "one DIR only, got " + a.operands().size());
        }
        Path dir = directory("pending", a.operands().isEmpty() ? null : a.operands().getFirst(), env);
        if (!Files.isDirectory(dir)) {
            if (a.operands().isEmpty() && !Files.exists(dir)) {
                err.println("stretto: no call waits for approval (" + dir + " does not exist)");
                return Stretto.EXIT_OK;
            }
            throw Files.exists(dir) ? new IOException(dir + ": not a directory") : new NoSuchFileException(dir.toString());
        }
        List<PendingApproval> calls = Approvals.pending(dir);
        if (calls.isEmpty()) {
            err.println("stretto: no call waits for approval under " + dir);
        }
        Instant now = Instant.now();
        for (PendingApproval p : calls) {
            if (a.has("--json")) {
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.put("id", p.id());
                o.put("session", p.session());
                o.put("tool", p.tool());
                o.set("arguments", p.arguments());
                o.put("rule", p.rule());
                if (p.reason() != null) {
                    o.put("reason", p.reason());
                }
                o.put("asked_unix_ms", p.asked().toEpochMilli());
                o.put("deadline_unix_ms", p.deadline().toEpochMilli());
                out.println(CanonicalJson.write(o));
            } else {
                long left = Math.max(0, Duration.between(now, p.deadline()).toSeconds());
                out.println(p.id() + "  " + p.session() + "  " + p.tool() + "  "
                        + TimelinePrinter.cut(CanonicalJson.write(p.arguments())) + "  (" + p.rule() + ", " + left
                        + " s left)");
            }
        }
        return Stretto.EXIT_OK;
    }

    private static int decide(String[] args, PrintStream out, PrintStream err, Map<String, String> env, boolean approve)
            throws UsageException, IOException {
        String command = approve ? "approve" : "deny";
        Args a = Args.parse(command, args, 1, Set.of("--help", "-h"), approve ? Set.of("--dir")
                : Set.of("--dir", "--reason"));
        if (Stretto.helpAsked(a, out, approve ? APPROVE_HELP : DENY_HELP)) {
            return Stretto.EXIT_OK;
        }
        if (a.operands().size() != 1) {
            throw new UsageException(command, a.operands().isEmpty() ? "no ID given (see stretto pending)"
                    : "one ID only, got " + a.operands().size());
        }
        String id = a.operands().getFirst();
        String reason = a.values().get("--reason");
        if (reason != null && (reason.isBlank() || reason.chars().anyMatch(c -> c == '\n' || c == '\r'))) {
            throw new UsageException(command, "--reason is one line of text");
        }
        Path dir = directory(command, a.values().get("--dir"), env);
        if (!Files.isDirectory(dir)) {
            err.println("stretto: no call waits for approval with the id " + id + " (" + dir + " is not a directory)");
            return Stretto.EXIT_BAD_INPUT;
        }
        Optional<PendingApproval> decided = approve ? Approvals.approve(dir, id) : Approvals.deny(dir, id, reason);
        if (decided.isEmpty()) {
            err.println("stretto: no call waits for approval with the id " + id + " under " + dir + " (it was decided,"
                    + " timed out, or its session ended; see stretto pending)");
            return Stretto.EXIT_BAD_INPUT;
        }
        PendingApproval p = decided.get();
        out.println((approve ? "approved " : "denied ") + p.id() + ": " + p.tool() + " "
                + TimelinePrinter.cut(CanonicalJson.write(p.arguments())) + " (session " + p.session() + ")");
        try {
            if (!Approvals.awaitTaken(p, TAKE_WAIT)) {
                err.println("stretto: the session's proxy has not taken the decision yet; it does at its next look, if"
                        + " it is still running");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Stretto.EXIT_OK;
    }
}
