package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code stretto export-answers} and {@code import-answers}: an oracle cache as JSON lines
 * {@code {"key":<key>,"response":<response>}}, one answer each, sorted by key, so answers
 * move between machines and caches.
 *
 * <p>A key is the SHA-256 of the request, which the cache does not keep; so an import can
 * check that each key is a well-formed key and each response a well-formed response, not
 * that they belong together. An export reads each key from its file's name and place.
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
        OracleCache cache = cache(COMMAND_EXPORT, a);
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
        OracleCache cache = cache(COMMAND_IMPORT, a);
        String source = operand(COMMAND_IMPORT, a, "FILE");
        List<Entry> entries;
        if (source == null) {
            entries = read(in, "<stdin>");
        } else {
            Path p = Path.of(source);
            if (Files.isDirectory(p)) {
                throw new IOException(p + ": is a directory, not an export file");
            }
            try (InputStream file = Files.newInputStream(p)) {
                entries = read(file, source);
            }
        }
        try {
            store(cache, entries, err);
        } catch (OracleException e) {
            throw new IOException(e.getMessage(), e);
        }
        return Stretto.EXIT_OK;
    }

    private static OracleCache cache(String command, Args a) throws UsageException {
        String dir = a.values().get("--oracle-cache");
        if (dir == null) {
            throw new UsageException(command, "--oracle-cache DIR is required");
        }
        return new OracleCache(Path.of(dir));
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
    private static boolean export(OracleCache cache, Writer out, PrintStream err, String destination)
            throws IOException {
        int exported = 0;
        int unreadable = 0;
        for (String key : cache.keys()) {
            Optional<Response> response;
            try {
                response = cache.find(key);
            } catch (OracleException e) {
                err.println("stretto: " + e.getMessage() + "; left out");
                unreadable++;
                continue;
            }
            if (response.isPresent()) { // else pruned since it was listed
                out.write("{\"key\":" + JsonText.quote(key) + ",\"response\":" + response.get().toJson() + "}\n");
                exported++;
            }
        }
        out.flush();
        err.println("stretto: exported " + count(exported) + " to " + destination
                + (unreadable > 0 ? ", left out " + unreadable + " that could not be read" : ""));
        return unreadable == 0;
    }

    /** One answer of an export file. */
    private record Entry(String key, Response response) {
    }

    /**
     * Reads an export file, checking every line before anything is stored.
     *
     * @param source how errors name the input ({@code FILE} or {@code <stdin>})
     * @throws IOException naming {@code source:line} for the first line that is not an answer
     */
    private static List<Entry> read(InputStream in, String source) throws IOException {
        var utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, utf8));
        List<Entry> entries = new ArrayList<>();
        int lineNumber = 0;
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (!line.isBlank()) {
                    entries.add(entry(line, source + ":" + lineNumber));
                }
            }
        } catch (CharacterCodingException e) {
            throw new IOException(source + ":" + (lineNumber + 1) + ": not UTF-8 text", e);
        }
        return entries;
    }

    private static Entry entry(String line, String where) throws IOException {
        JsonNode node;
        try {
            node = CanonicalJson.parse(line);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": not JSON: " + e.getMessage());
        }
        if (!node.isObject()) {
            throw new IOException(where + ": not an object with \"key\" and \"response\"");
        }
        JsonNode key = node.get("key");
        if (key == null || !key.isTextual() || !OracleCache.isKey(key.textValue())) {
            throw new IOException(where + ": \"key\" is not a cache key (64 lowercase hex digits)");
        }
        JsonNode response = node.get("response");
        if (response == null || !response.isObject()) {
            throw new IOException(where + ": no \"response\" object");
        }
        try {
            return new Entry(key.textValue(), Response.parse(CanonicalJson.write(response)));
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": the response is not an answer: " + e.getMessage());
        }
    }

    /**
     * Stores the entries. An answer the cache already holds for a key is kept (as {@code jev}
     * never asks twice), unless it cannot be read; then the imported one replaces it.
     *
     * @throws OracleException if an answer cannot be written
     */
    private static void store(OracleCache cache, List<Entry> entries, PrintStream err) {
        int stored = 0;
        int kept = 0;
        for (Entry e : entries) {
            boolean present;
            try {
                present = cache.find(e.key()).isPresent();
            } catch (OracleException unreadable) {
                present = false;
            }
            if (present) {
                kept++;
            } else {
                cache.put(e.key(), e.response());
                stored++;
            }
        }
        err.println("stretto: imported " + count(stored) + " into " + cache.directory()
                + (kept > 0 ? ", kept the " + kept + " already there" : ""));
    }

    private static String count(int n) {
        return n + (n == 1 ? " answer" : " answers");
    }
}
