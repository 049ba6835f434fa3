package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.CachedAnswers;
import dev.stretto.proxy.AnswerCache;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto export-answers} and {@code import-answers} on real cache directories. */
class AnswersCommandsTest {

    private static final String A = "0a" + "1".repeat(62);
    private static final String B = "69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5";

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    private static Run withInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int status = Stretto.run(args, in, o, e, false, false);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static Run run(String... args) {
        return withInput("", args);
    }

    private static String noul(String model, double p) {
        return CachedAnswers.response().noul("confirmed", p).json(model, 10, 1);
    }

    private Path cacheWithTwoAnswers() throws IOException {
        Path cache = dir.resolve("cache");
        CachedAnswers.put(cache, B, noul("jev-1.13.0", 0.5));
        CachedAnswers.put(cache, A, noul("mock", 0.25));
        return cache;
    }

    /** The cache's answers as export lines, read through the API. */
    private static List<String> answers(Path cache) throws IOException {
        StringWriter out = new StringWriter();
        AnswerCache.at(cache).exportTo(out);
        return out.toString().lines().toList();
    }

    private static final String EXPORTED = "{\"key\":\"" + A + "\",\"response\":{\"model\":\"mock\",\"answers\":{\"confirmed\":"
            + "{\"type\":\"noul\",\"noul\":0.25}},\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n"
            + "{\"key\":\"" + B + "\",\"response\":{\"model\":\"jev-1.13.0\",\"answers\":{\"confirmed\":"
            + "{\"type\":\"noul\",\"noul\":0.5}},\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n";

    @Test
    void exportWritesOneLinePerAnswerSortedByKey() throws Exception {
        cacheWithTwoAnswers();
        Run r = run("export-answers", "--oracle-cache", dir.resolve("cache").toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(EXPORTED, r.out());
        assertEquals("stretto: exported 2 answers to standard output\n", r.err());
    }

    @Test
    void exportToAFileAndImportIntoAnotherCacheMovesEveryAnswer() throws Exception {
        cacheWithTwoAnswers();
        Path file = dir.resolve("answers.jsonl");
        Run export = run("export-answers", "--oracle-cache=" + dir.resolve("cache"), file.toString());
        assertEquals(0, export.status(), export.err());
        assertEquals("", export.out());
        assertEquals(EXPORTED, Files.readString(file));

        Run imported = run("import-answers", "--oracle-cache", dir.resolve("copy").toString(), file.toString());
        assertEquals(0, imported.status(), imported.err());
        assertEquals("stretto: imported 2 answers into " + dir.resolve("copy") + "\n", imported.err());
        assertEquals(EXPORTED.lines().toList(), answers(dir.resolve("copy")));
        assertEquals(Files.readString(dir.resolve("cache/69/" + B + ".json")),
                Files.readString(CachedAnswers.fileOf(dir.resolve("copy"), B)));
    }

    @Test
    void importReadsStandardInputAndKeepsAnswersAlreadyThere() throws Exception {
        Path cache = dir.resolve("cache");
        CachedAnswers.put(cache, B, noul("local", 0.9));
        Run r = withInput("\n" + EXPORTED + "\n", "import-answers", "--oracle-cache", cache.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("stretto: imported 1 answer into " + cache + ", kept the 1 already there\n", r.err());
        // A comes from the import; B is the answer the cache held, exported in the service's order.
        assertEquals(List.of(EXPORTED.lines().findFirst().orElseThrow(), "{\"key\":\"" + B + "\",\"response\":{"
                + "\"model\":\"local\",\"answers\":{\"confirmed\":{\"type\":\"noul\",\"noul\":0.9}},\"usage\":"
                + "{\"input_tokens\":10,\"output_tokens\":1}}}"), answers(cache));
    }

    @Test
    void anEntryThatCannotBeReadIsReplacedOnImport() throws Exception {
        Path cache = dir.resolve("cache");
        Files.createDirectories(CachedAnswers.fileOf(cache, B).getParent());
        Files.writeString(CachedAnswers.fileOf(cache, B), "{");
        Run r = withInput(EXPORTED, "import-answers", "--oracle-cache", cache.toString(), "-");
        assertEquals(0, r.status(), r.err());
        assertEquals(EXPORTED.lines().toList(), answers(cache));
    }

    @Test
    void aBadLineStopsTheImportBeforeAnythingIsStored() {
        String[][] cases = {
                {"not json", "<stdin>:2: not JSON: "},
                {"[1]", "<stdin>:2: not an object with \"key\" and \"response\""},
                {"{\"key\":\"" + A.toUpperCase() + "\",\"response\":{}}", "<stdin>:2: \"key\" is not a cache key (64 lowercase hex digits)"},
                {"{\"key\":\"../../etc\",\"response\":{}}", "<stdin>:2: \"key\" is not a cache key (64 lowercase hex digits)"},
                {"{\"key\":\"" + A + "\"}", "<stdin>:2: no \"response\" object"},
                {"{\"key\":\"" + A + "\",\"response\":{\"model\":\"m\"}}",
                        "<stdin>:2: the response is not an answer: the response has no \"answers\" object"},
        };
        for (String[] c : cases) {
            String input = EXPORTED.lines().toList().get(1) + "\n" + c[0] + "\n";
            Run r = withInput(input, "import-answers", "--oracle-cache", dir.resolve("cache").toString());
            assertEquals(1, r.status(), c[0]);
            assertTrue(r.err().startsWith("stretto: " + c[1]), r.err());
            assertFalse(Files.exists(dir.resolve("cache")), "nothing stored for " + c[0]);
        }
    }

    @Test
    void exportLeavesOutAnEntryThatCannotBeReadAndSaysSo() throws Exception {
        Path cache = cacheWithTwoAnswers();
        Files.writeString(CachedAnswers.fileOf(cache, B), "{\"model\":");
        Run r = run("export-answers", "--oracle-cache", dir.resolve("cache").toString());
        assertEquals(1, r.status());
        assertEquals(EXPORTED.lines().toList().getFirst() + "\n", r.out());
        assertTrue(r.err().startsWith("stretto: the oracle cache entry " + CachedAnswers.fileOf(cache, B)
                + " is not an answer: "), r.err());
        assertTrue(r.err().endsWith("; left out\nstretto: exported 1 answer to standard output,"
                + " left out 1 that could not be read\n"), r.err());
    }

    @Test
    void exportOfAMissingCacheIsAnError() {
        Run r = run("export-answers", "--oracle-cache", dir.resolve("none").toString(), dir.resolve("out").toString());
        assertEquals(1, r.status());
        assertEquals("stretto: " + dir.resolve("none") + ": no such file or directory\n", r.err());
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void importOfAMissingFileIsAnError() {
        Run r = run("import-answers", "--oracle-cache", dir.toString(), dir.resolve("nope.jsonl").toString());
        assertEquals(1, r.status());
        assertEquals("stretto: " + dir.resolve("nope.jsonl") + ": no such file or directory\n", r.err());
    }

    @Test
    void usageErrorsAndHelp() {
        Run noCache = run("export-answers");
        assertEquals(2, noCache.status());
        assertEquals("stretto: export-answers: --oracle-cache DIR is required (see 'stretto export-answers --help')\n",
                noCache.err());
        Run twoFiles = run("import-answers", "--oracle-cache", "c", "a", "b");
        assertEquals(2, twoFiles.status());
        assertEquals("stretto: import-answers: one FILE only, got 2 (see 'stretto import-answers --help')\n", twoFiles.err());
        Run help = run("import-answers", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: stretto import-answers --oracle-cache DIR [FILE]\n"), help.out());
        Run top = run("--help");
        assertTrue(top.out().contains("  export-answers --oracle-cache DIR [OUT]\n"), top.out());
    }
}
