package dev.stretto.cli.tools;

import dev.stretto.proxy.AnswerCache;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code stretto export-answers} and {@code import-answers}: an oracle cache as JSON lines
 * ({@link AnswerCache}), one answer each, sorted by key, so answers move between machines and
 * caches. The reading, checking and storing are the library's; here are the options, the
 * files and what stderr says.
 */
final class AnswerTransfer {

    private static final String EXIT_CODES = """
            Exit status:
              0  success
              1  a file or the cache cannot be read or written, a line is not an answer, or
                 a cache entry could not be read (stderr: stretto: <what>: <reason>)
              2  usage error (stderr: stretto: <what is wrong> (see ... --help))
            """;

    private static final String EXPORT_HELP = """
            Usage: stretto export-answers --oracle-cache DIR [OUT]

            Writes every answer in the oracle cache DIR (the directory stretto-proxy's
            --oracle-cache names) to OUT, or to standard output without OUT or with '-': one
            JSON line {"key": <request key>, "response": <the answer>} per answer, sorted by
            key, the format of the reference implementation's export. import-answers reads
            it back, here or on another machine. Only the cache's own files are read
            (<2 hex digits>/<key>.json); an entry that cannot be read is named on stderr and
            left out. A summary goes to stderr.

            Options:
              --oracle-cache DIR   the cache to export (required)
              -h, --help           show this help

            """ + EXIT_CODES;

    private static final String IMPORT_HELP = """
            Usage: stretto import-answers --oracle-cache DIR [FILE]

            Adds the answers of FILE (standard input without FILE or with '-'), written by
            export-answers, to the oracle cache DIR, which is made if missing. Every line is
            checked first, and nothing is stored unless all are answers: a key of 64
            lowercase hex digits and a well-formed response (blank lines are skipped). A key
            is a hash of the request, which an export does not hold, so whether an answer
            belongs to its key cannot be checked. An answer the cache already holds for a key
            is kept, as a proxy never asks the same question twice; an entry that cannot be
            read is replaced. A summary goes to stderr.

            Options:
              --oracle-cache DIR   the cache to add to (required)
              -h, --help           show this help

            """ + EXIT_CODES;

    private static final String COMMAND_EXPORT = "export-answers";
    private static final String COMMAND_IMPORT = "import-answers";

    private AnswerTransfer() {
    }

    /** {@code stretto export-answers}; {@code args[0]} is the command. */
    static int exportCommand(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        Args a = Args.parse(COMMAND_EXPORT, args, 1, Set.of("--help", "-h"), Set.of("--oracle-cache"));
        if (Stretto.helpAsked(a, out, EXPORT_HELP)) {
            return Stretto.EXIT_OK;
        }
        AnswerCache cache = cache(COMMAND_EXPORT, a);
        String target = operand(COMMAND_EXPORT, a, "OUT");
        // Before OUT is made: a mistyped cache should not leave an empty export behind.
        if (!Files.isDirectory(cache.directory())) {
            throw new NoSuchFileException(cache.directory().toString());
        }
        boolean complete;
        if (target == null) {
            complete = export(cache, new OutputStreamWriter(out, StandardCharsets.UTF_8), err, "standard output");
        } else {
            try (Writer w = Files.newBufferedWriter(Path.of(target), StandardCharsets.UTF_8)) {
                complete = export(cache, w, err, target);
            }
        }
        return complete ? Stretto.EXIT_OK : Stretto.EXIT_BAD_INPUT;
    }

    /** {@code stretto import-answers}; {@code args[0]} is the command. */
    static int importCommand(String[] args, InputStream in, PrintStream out, PrintStream err)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND_IMPORT, args, 1, Set.of("--help", "-h"), Set.of("--oracle-cache"));
        if (Stretto.helpAsked(a, out, IMPORT_HELP)) {
            return Stretto.EXIT_OK;
        }
        AnswerCache cache = cache(COMMAND_IMPORT, a);
        String source = operand(COMMAND_IMPORT, a, "FILE");
        List<AnswerCache.Answer> answers;
        if (source == null) {
            answers = AnswerCache.readExport(in, "<stdin>");
        } else {
            Path p = Path.of(source);
            if (Files.isDirectory(p)) {
                throw new IOException(p + ": is a directory, not an export file");
            }
            try (InputStream file = Files.newInputStream(p)) {
                answers = AnswerCache.readExport(file, source);
            }
        }
        AnswerCache.Import stored = cache.add(answers);
        err.println("stretto: imported " + count(stored.stored()) + " into " + cache.directory()
                + (stored.kept() > 0 ? ", kept the " + stored.kept() + " already there" : ""));
        return Stretto.EXIT_OK;
    }

    private static AnswerCache cache(String command, Args a) throws UsageException {
        String dir = a.values().get("--oracle-cache");
        if (dir == null) {
            throw new UsageException(command, "--oracle-cache DIR is required");
        }
        return AnswerCache.at(Path.of(dir));
    }

    /** The one file operand, or null for none or {@code -} (standard input or output). */
    private static String operand(String command, Args a, String what) throws UsageException {
        if (a.operands().size() > 1) {
            throw new UsageException(command, "one " + what + " only, got " + a.operands().size());
        }
        String operand = a.operands().isEmpty() ? null : a.operands().getFirst();
        return "-".equals(operand) ? null : operand;
    }

    /**
     * Writes every answer of the cache to {@code out}. An entry that cannot be read is named
     * on {@code err} and left out.
     *
     * @return whether every entry was exported
     */
    private static boolean export(AnswerCache cache, Writer out, PrintStream err, String destination)
            throws IOException {
        AnswerCache.Export e = cache.exportTo(out);
        for (String unreadable : e.unreadable()) {
            err.println("stretto: " + unreadable + "; left out");
        }
        int left = e.unreadable().size();
        err.println("stretto: exported " + count(e.exported()) + " to " + destination
                + (left > 0 ? ", left out " + left + " that could not be read" : ""));
        return left == 0;
    }

    private static String count(int n) {
        return n + (n == 1 ? " answer" : " answers");
    }
}
