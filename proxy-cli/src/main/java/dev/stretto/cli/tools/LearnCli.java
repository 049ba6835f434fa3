package dev.stretto.cli.tools;

import dev.stretto.cli.OracleEnvironment;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.LearnedFlow;
import dev.stretto.proxy.flow.Learning;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code stretto learn}: its options, help and messages; the learning is the library's {@link Learning}. */
final class LearnCli {

    static final String COMMAND = "learn";

    static final String HELP = """
            Usage: stretto learn --sessions DIR --domain NAME --out FILE [options]

            Learns a flow from the sessions stretto-proxy recorded with --record: after which
            calls the agent looks something up, which read-only tools it calls then, and where
            their arguments come from. The file is the one the reference's stretto learn
            writes from the same logs, so flows move between the two.

            Every *.jsonl directly in DIR is read, except *.flow.jsonl and *.confirm.jsonl.
            Logs that one agent session left with several servers (same host session,
            overlapping times) are merged into one session whose tools are named server::tool.

            Three ways to learn:
              --habit-only         every session trains the habit, and the flow has no
                                   arbiter (serve it with the reach or habit decider); no
                                   model is asked. Byte for byte the reference's file, apart
                                   from compiled_unix_ms (and with --lookup-cost, its
                                   per-site thresholds; with --per-lookup or --bind-said,
                                   format 3).
              (the default)        the arbiter path: 30% of the sessions are held out and the
                                   habit learns from the others; at each decision of the
                                   held-out sessions the System-One model is asked what the
                                   served arbiter would ask, and the arbiter is fitted on its
                                   answers (five identical folds).
              --arbiter-from FILE  the habit from every session, and the arbiter of FILE: an
                                   arbiter file (stretto_arbiter) or another flow with one.

            Options:
              --sessions DIR      the session logs (required)
              --domain NAME       the flow's domain (required; a --manifest's own domain wins)
              --out FILE          where to write the flow (required; replaced if it exists)
              --habit-only        learn without a System-One model (see above)
              --arbiter-from FILE take the arbiter from FILE (see above)
              --manifest FILE     tool kinds and docs from this manifest instead of the
                                  sessions' tools/list answers (stretto manifest writes one);
                                  input contracts still come from the logs
              --rewards FILE      a JSON object of rewards by session id; a session without
                                  one gets 1.0, and only sessions whose reward is 1 train
              --constants         learn arguments that always took one value, and pass them
              --half-life N       weigh older sessions less in the habit: a session followed
                                  by k newer ones counts 0.5^(k/N); N > 0
              --lookup-cost C     with --habit-only: learn each site's threshold from what a
                                  wasted lookup costs, C turns saved (C > 0; 1 makes a
                                  lookup worth it when the agent makes it more often than
                                  not): flows learned from all but a fifth of the sessions
                                  are served again on that fifth, and each site gets the
                                  threshold under which the lookups the agent made, less C
                                  times those it did not, come to most. Writes format 2
              --per-lookup        with --lookup-cost: also tune each lookup at each site by
                                  what the customer said (--context): whether they mentioned
                                  the values it would pass, else whether the result just
                                  before showed a new value they mentioned. Writes format 3,
                                  which only this build serves
              --bind-said         also bind lookups to values the customer said (--context):
                                  an argument whose values the customer often said before
                                  any result held them (an order id in the first message)
                                  is bound to the tokens of their words of the same shape
                                  (#W2378156 is #W9999999: digits become 9). On every path.
                                  Writes format 3 (bindings.said), which only this build
                                  serves

            Options of the arbiter path:
              --oracle MODE       who answers: jev (default: the cache, else TypeSafe's
                                  System-One service, which is sent excerpts of the held-out
                                  conversations), replay (the cache only) or mock (fixed
                                  answers, to try things out)
              --oracle-cache DIR  the answer cache (default .oracle-cache)
              --oracle-budget USD refuse to ask when the questions not in the cache could
                                  cost more, at $0.042 per million tokens (default 1)
              --predicates FILE   yes/no questions to ask and weigh, {"predicates": [...]}
              --manifest-options  offer every read tool at every site, not only the lookups
                                  that followed it in training
              --refit-habit       after fitting the arbiter, learn the habit again from every
                                  session
              -h, --help          show this help

            Environment (arbiter path): TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE (the key,
            needed by --oracle jev for questions not in the cache), TYPESAFE_BASE_URL,
            TYPESAFE_DEFAULT_MODEL (the model asked and written into the flow, default
            jev-latest), SSL_CERT_FILE.

            On stderr: a line per phase with its counts (and a progress bar on a terminal),
            then: stretto: learned the <domain> flow from <n> sessions (<m> tools) and wrote <out>

            Exit status:
              0  the flow was written
              1  the sessions cannot make a flow (none, none successful, unknown tools, too
                 few to hold some out), the arbiter's answers cannot be had (no key, not in
                 the cache, over budget, the service fails), or a file cannot be read
                 (stderr names it)
              2  usage error
            """;

    private static final List<String> ARBITER_OPTIONS = List.of("--refit-habit", "--arbiter-from",
            "--manifest-options", "--oracle", "--oracle-cache", "--oracle-budget", "--predicates");

    private LearnCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, boolean bars, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--habit-only", "--constants", "--refit-habit",
                        "--manifest-options", "--per-lookup", "--bind-said", "--help", "-h"),
                Set.of("--sessions", "--domain", "--out", "--manifest", "--rewards", "--half-life", "--arbiter-from",
                        "--oracle", "--oracle-cache", "--oracle-budget", "--predicates", "--lookup-cost"));
        if (a.has("--help") || a.has("-h")) {
            out.print(HELP);
            return Stretto.EXIT_OK;
        }
        Learning learning = learning(a);
        Path target = Path.of(a.values().get("--out"));
        OutputFile.prepare(COMMAND, "--out", target, "the flow");
        ProgressBars progress = new ProgressBars(err, bars);
        Oracle oracle = null;
        try {
            oracle = arbiterPath(a, env, learning);
            LearnedFlow learned = learning.progress(progress).learn();
            FlowFiles.write(learned.flow(), target);
            progress.line("learned the " + learned.flow().domain() + " flow from " + learned.sessions()
                    + " sessions (" + learned.flow().tools().size() + " tools) and wrote " + target);
            return Stretto.EXIT_OK;
        } catch (FlowException e) {
            progress.line(e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            progress.line("interrupted while waiting for the System-One model; nothing was written");
            return Stretto.EXIT_BAD_INPUT;
        } finally {
            if (oracle != null) {
                oracle.close();
            }
        }
    }

    /** The learning the options ask for, checked; the arbiter path's oracle is opened later. */
    private static Learning learning(Args a) throws UsageException {
        a.requireOptionsOnly(COMMAND, "--sessions", "--domain", "--out");
        Map<String, String> v = a.values();
        Learning learning = Learning.fromDirectory(Path.of(v.get("--sessions"))).domain(v.get("--domain"))
                .constants(a.has("--constants")).bindSaid(a.has("--bind-said"));
        if (v.containsKey("--half-life")) {
            double halfLife = number(v, "--half-life", "a number of sessions");
            if (!(halfLife > 0.0)) {
                throw new UsageException(COMMAND, "--half-life must be > 0");
            }
            learning.halfLife(halfLife);
        }
        if (v.containsKey("--manifest")) {
            learning.manifest(Path.of(v.get("--manifest")));
        }
        if (v.containsKey("--rewards")) {
            learning.rewardsFrom(Path.of(v.get("--rewards")));
        }
        if (v.containsKey("--lookup-cost")) {
            double lookupCost = number(v, "--lookup-cost", "a number of turns");
            if (!(lookupCost > 0.0) || Double.isInfinite(lookupCost)) {
                throw new UsageException(COMMAND, "--lookup-cost must be a number above 0");
            }
            if (!a.has("--habit-only")) {
                throw new UsageException(COMMAND, "--lookup-cost learns the thresholds of the reach decider, which"
                        + " serves flows without an arbiter: use it with --habit-only");
            }
            learning.lookupCost(lookupCost);
        }
        if (a.has("--per-lookup")) {
            if (!v.containsKey("--lookup-cost")) {
                throw new UsageException(COMMAND, "--per-lookup tunes thresholds by the cost of a wasted lookup: give"
                        + " --lookup-cost C");
            }
            learning.perLookup(true);
        }
        if (a.has("--habit-only")) {
            refuse(a, "--habit-only", ARBITER_OPTIONS, "it learns without a System-One model");
            return learning.habitOnly();
        }
        if (v.containsKey("--arbiter-from")) {
            refuse(a, "--arbiter-from", ARBITER_OPTIONS.stream().filter(o -> !o.equals("--arbiter-from")).toList(),
                    "the arbiter comes from the file");
            return learning.arbiterFrom(Path.of(v.get("--arbiter-from")));
        }
        OracleOption.parse(COMMAND, v.get("--oracle"), OracleMode.JEV);
        if (v.containsKey("--oracle-budget")) {
            double budget = number(v, "--oracle-budget", "a number of dollars");
            if (!(budget >= 0) || Double.isInfinite(budget)) {
                throw new UsageException(COMMAND, "--oracle-budget must be a number of dollars, 0 or more");
            }
        }
        return learning;
    }

    /**
     * The arbiter path (unless {@code --habit-only} or {@code --arbiter-from}): the oracle of
     * {@code --oracle} over {@code --oracle-cache}, with the environment's settings, given to
     * {@code learning} with the path's other options.
     *
     * @return the oracle, for the caller to close; null on the other paths
     * @throws FlowException when the environment's settings cannot be used, or System-One cannot
     *                       be asked (the certificates of {@code SSL_CERT_FILE})
     */
    private static Oracle arbiterPath(Args a, Map<String, String> env, Learning learning)
            throws UsageException, FlowException {
        Map<String, String> v = a.values();
        if (a.has("--habit-only") || v.containsKey("--arbiter-from")) {
            return null;
        }
        OracleMode mode = OracleOption.parse(COMMAND, v.get("--oracle"), OracleMode.JEV);
        OracleSettings settings;
        try {
            settings = OracleEnvironment.read(env, mode).cache(Path.of(v.getOrDefault("--oracle-cache", ".oracle-cache")))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new FlowException(e.getMessage());
        }
        Oracle oracle;
        try {
            oracle = settings.open();
        } catch (IllegalArgumentException e) {
            throw new FlowException("cannot ask System-One: " + e.getMessage());
        }
        learning.arbiter(oracle).offerEveryRead(a.has("--manifest-options")).refitHabit(a.has("--refit-habit"));
        if (v.containsKey("--predicates")) {
            learning.predicates(Path.of(v.get("--predicates")));
        }
        if (v.containsKey("--oracle-budget")) {
            learning.budget(number(v, "--oracle-budget", "a number of dollars"));
        }
        return oracle;
    }

    private static void refuse(Args a, String option, List<String> others, String why) throws UsageException {
        for (String o : others) {
            if (a.has(o) || a.values().containsKey(o)) {
                throw new UsageException(COMMAND, option + " cannot be used with " + o + " (" + why + ")");
            }
        }
    }

    private static double number(Map<String, String> v, String option, String what) throws UsageException {
        try {
            return Double.parseDouble(v.get(option));
        } catch (NumberFormatException e) {
            throw new UsageException(COMMAND, option + " takes " + what + ", not '" + v.get(option) + "'");
        }
    }
}
