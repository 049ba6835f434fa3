package dev.stretto.cli.tools;

import dev.stretto.cli.learn.FlowLearner;
import dev.stretto.cli.learn.LearnException;
import dev.stretto.cli.learn.LearnOptions;
import dev.stretto.cli.learn.Progress;
import dev.stretto.proxy.flow.file.FlowFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;

/** {@code stretto learn}: its options, help and messages; the learning is {@link FlowLearner}'s. */
final class LearnCli {

    static final String COMMAND = "learn";

    static final String HELP = """
            Usage: stretto learn --sessions DIR --domain NAME --out FILE --habit-only [options]

            Learns a flow from the sessions stretto-proxy recorded with --record: after which
            calls the agent looks something up, which read-only tools it calls then, and where
            their arguments come from. The file is the one the reference's stretto learn
            writes from the same logs, byte for byte (apart from compiled_unix_ms), so flows
            move between the two.

            Every *.jsonl directly in DIR is read, except *.flow.jsonl and *.confirm.jsonl.
            Logs that one agent session left with several servers (same host session,
            overlapping times) are merged into one session whose tools are named server::tool.

            This build learns without a System-One model only, so --habit-only is required:
            every session trains the habit and the flow has no arbiter (serve it with the
            reach or habit decider). The options of the arbiter path (--oracle,
            --arbiter-from, --refit-habit, --manifest-options, --predicates) are not here yet.

            Options:
              --sessions DIR      the session logs (required)
              --domain NAME       the flow's domain (required; a --manifest's own domain wins)
              --out FILE          where to write the flow (required; replaced if it exists)
              --habit-only        learn without a System-One model (required, see above)
              --manifest FILE     tool kinds and docs from this manifest instead of the
                                  sessions' tools/list answers (stretto manifest writes one);
                                  input contracts still come from the logs
              --rewards FILE      a JSON object of rewards by session id; a session without
                                  one gets 1.0, and only sessions whose reward is 1 train
              --constants         learn arguments that always took one value, and pass them
              --half-life N       weigh older sessions less in the habit: a session followed
                                  by k newer ones counts 0.5^(k/N); N > 0
              -h, --help          show this help

            On stderr: a line per phase with its counts (and a progress bar on a terminal),
            then: stretto: learned the <domain> flow from <n> sessions (<m> tools) and wrote <out>

            Exit status:
              0  the flow was written
              1  the sessions cannot make a flow (none, none successful, unknown tools) or a
                 file cannot be read (stderr names it)
              2  usage error
            """;

    private LearnCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, boolean bars)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--habit-only", "--constants", "--help", "-h"),
                Set.of("--sessions", "--domain", "--out", "--manifest", "--rewards", "--half-life"));
        if (a.has("--help") || a.has("-h")) {
            out.print(HELP);
            return Stretto.EXIT_OK;
        }
        LearnOptions options = options(a);
        Progress progress = new Progress(err, bars);
        try {
            FlowLearner.Result learned = new FlowLearner(options, progress, InstantSource.system()).learn();
            FlowFile.write(learned.flow(), options.out());
            progress.line("learned the " + options.domain() + " flow from " + learned.sessions()
                    + " sessions (" + learned.flow().manifest().tools().size() + " tools) and wrote " + options.out());
            return Stretto.EXIT_OK;
        } catch (LearnException e) {
            progress.line(e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        }
    }

    private static LearnOptions options(Args a) throws UsageException {
        if (!a.operands().isEmpty()) {
            throw new UsageException(COMMAND, "unexpected argument '" + a.operands().getFirst() + "'");
        }
        Map<String, String> v = a.values();
        for (String required : new String[] {"--sessions", "--domain", "--out"}) {
            if (!v.containsKey(required)) {
                throw new UsageException(COMMAND, required + " is required");
            }
        }
        if (!a.has("--habit-only")) {
            throw new UsageException(COMMAND, "learning without --habit-only needs a System-One model (the arbiter"
                    + " path), which this build does not have: pass --habit-only");
        }
        Double halfLife = null;
        if (v.containsKey("--half-life")) {
            try {
                halfLife = Double.parseDouble(v.get("--half-life"));
            } catch (NumberFormatException e) {
                throw new UsageException(COMMAND, "--half-life takes a number of sessions, not '"
                        + v.get("--half-life") + "'");
            }
            if (!(halfLife > 0.0)) {
                throw new UsageException(COMMAND, "--half-life must be > 0");
            }
        }
        return new LearnOptions(Path.of(v.get("--sessions")), v.get("--domain"), Path.of(v.get("--out")),
                path(v.get("--manifest")), path(v.get("--rewards")), a.has("--constants"), halfLife);
    }

    private static Path path(String value) {
        return value == null ? null : Path.of(value);
    }
}
