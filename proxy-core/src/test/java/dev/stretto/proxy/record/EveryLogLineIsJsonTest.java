package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
import dev.stretto.trace.log.EntryWriter;
import dev.stretto.trace.log.LineBytes;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log writer's promise, checked on thousands of generated lines of every kind: every line
 * of the log is one JSON text that a strict reader accepts, and trace-reader gives back each
 * input line from it: as {@code message}, the same bytes trimmed as formats 8.2 says, exactly
 * when those bytes are JSON any reader accepts (judged by {@link StrictJson}, written from RFC
 * 8259, not by the Jackson the writer uses); otherwise as {@code raw}, the text with each
 * ill-formed UTF-8 subpart replaced by one U+FFFD (judged by {@link #lossy}, which works from
 * the set of all prefixes of well-formed sequences rather than from the table the writer uses).
 * The writer's one pass over a line's bytes must give the same entry however the line is held
 * (whole, or in the pieces a long line is read in).
 */
class EveryLogLineIsJsonTest {

    private static final ObjectMapper STRICT_JACKSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Every proper prefix (1 to 3 bytes) of the UTF-8 encoding of every scalar value, packed. */
    private static final Set<Integer> PREFIXES = prefixes();

    @TempDir
    Path dir;

    @Test
    void everyLineOfTheLogIsStrictJsonAndReadsBackAsTheLineItWasMadeFrom() throws Exception {
        List<byte[]> inputs = new ArrayList<>(LineGenerator.landmarks());
        LineGenerator generator = new LineGenerator(20261130L);
        for (int k = 0; k < 5000; k++) {
            inputs.add(generator.next());
        }

        Path file = dir.resolve("s.jsonl");
        String header = LogHeader.of("s", 1, List.of("srv"), null, null, null).toJson();
        OutputStream out = new FileOutputStream(file.toFile());
        out.write((header + "\n").getBytes(StandardCharsets.UTF_8));
        LogWriter writer = new LogWriter(file, out, System::nanoTime, System.nanoTime(), LogWriter.DEFAULT_CAPACITY, () -> {
        });
        Thread thread = Thread.ofVirtual().start(writer::call);
        for (int k = 0; k < inputs.size(); k++) {
            writer.record(k % 2 == 0 ? Source.CLIENT : Source.SERVER, new Line(inputs.get(k), k % 7 != 0));
        }
        writer.close();
        assertTrue(thread.join(Duration.ofSeconds(60)), "the writer did not finish");

        byte[] content = Files.readAllBytes(file);
        List<byte[]> logLines = splitLines(content);
        assertEquals(inputs.size() + 1, logLines.size(), "one log line per input line, after the header");
        for (int k = 0; k < logLines.size(); k++) {
            byte[] logLine = logLines.get(k);
            StrictJson.Verdict v = StrictJson.judge(logLine);
            if (!v.readableBySerde(0)) {
                fail("log line " + (k + 1) + " is not JSON every reader accepts (" + v + "): "
                        + new String(logLine, StandardCharsets.UTF_8) + "\nmade from: " + hex(inputs.get(k - 1)));
            }
            STRICT_JACKSON.readTree(logLine);
        }

        List<LogEntry> entries = SessionLog.read(file).entries();
        assertEquals(inputs.size(), entries.size());
        int messages = 0;
        for (int k = 0; k < inputs.size(); k++) {
            byte[] in = inputs.get(k);
            byte[] trimmed = trimmed(in);
            boolean json = trimmed.length > 0 && StrictJson.judge(trimmed).readableBySerde(1);
            Payload expected = json ? new Payload.Message(new String(trimmed, StandardCharsets.UTF_8))
                    : new Payload.Raw(lossy(withoutTerminator(in)));
            Payload got = entries.get(k).payload();
            if (!expected.equals(got)) {
                fail("line " + k + " (" + hex(in) + ") was logged as " + describe(got) + ", expected "
                        + describe(expected));
            }
            if (got instanceof Payload.Message m) {
                assertTrue(Arrays.equals(trimmed, m.json().getBytes(StandardCharsets.UTF_8)), "line " + k);
                messages++;
            }
        }
        assertTrue(messages > inputs.size() / 5 && messages < inputs.size() * 4 / 5,
                "the generator makes both kinds in numbers: " + messages + " messages of " + inputs.size());
    }

    /**
     * Issue 9: the log file writes each entry from the line's bytes, which a long line holds
     * in pieces. Wherever a line is cut (inside an escape, a number, a literal, a UTF-8
     * sequence, an ill-formed one), its entry is the one the whole line makes, byte for byte.
     */
    @Test
    void anEntryWrittenFromAnyPiecesOfALineIsTheEntryOfTheWholeLine() throws Exception {
        List<byte[]> inputs = new ArrayList<>(LineGenerator.landmarks());
        LineGenerator generator = new LineGenerator(20261201L);
        for (int k = 0; k < 5000; k++) {
            inputs.add(generator.next());
        }
        Random random = new Random(9);
        for (byte[] in : inputs) {
            byte[] expected = (new LogEntry(7, Source.SERVER, LineClassifier.classify(in)).toJson() + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            List<int[]> cuts = new ArrayList<>();
            if (in.length <= 80) {
                for (int c = 0; c <= in.length; c++) {
                    cuts.add(new int[] {c});
                }
            }
            for (int t = 0; t < 3; t++) {
                int[] some = new int[1 + random.nextInt(5)];
                for (int c = 0; c < some.length; c++) {
                    some[c] = random.nextInt(in.length + 1);
                }
                Arrays.sort(some);
                cuts.add(some);
            }
            for (int[] at : cuts) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (EntryWriter writer = new EntryWriter(out)) {
                    writer.write(7, Source.SERVER, pieces(in, at));
                }
                if (!Arrays.equals(expected, out.toByteArray())) {
                    fail("cut at " + Arrays.toString(at) + ", " + hex(in) + " was written as "
                            + out.toString(StandardCharsets.UTF_8) + "\nexpected " + new String(expected,
                            StandardCharsets.UTF_8));
                }
            }
        }
    }

    /**
     * Issue 9: long lines (here some hundreds of kilobytes: a line of many megabytes takes the
     * same path) are read in chunks and logged from them, never joined: JSON
     * of every kind of content (escapes, surrogate pairs, multi-byte characters across the
     * chunks' edges, numbers, nesting) stays a message, and a long line that breaks the rule
     * anywhere, even in its last bytes, is raw; the log reads back as the lines.
     */
    @Test
    void hugeLinesAreLoggedFromTheChunksTheyWereReadIn() throws Exception {
        String unit = "{\"t\":\"caf\u00e9 \\\"q\\\" \\u00e9 \\ud83d\\ude00 \u2713\ud83d\ude00\",\"n\":[-1.5e3,0,12345678901234567890],"
                + "\"o\":{\"a\":[true,false,null]}},";
        String message = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[" + unit.repeat(3_000) + "{}]}";
        byte[] json = message.getBytes(StandardCharsets.UTF_8);
        byte[] random = new byte[300_000];
        new Random(5).nextBytes(random);
        for (int k = 0; k < random.length; k++) {
            if (random[k] == '\n') {
                random[k] = 'x';
            }
        }
        List<byte[]> lines = List.of(
                json,
                concat(" \f".getBytes(StandardCharsets.UTF_8), json, "\t \r".getBytes(StandardCharsets.UTF_8)),
                concat(json, new byte[] {(byte) 0xE2, (byte) 0x82}),
                (message.substring(0, message.length() - 2) + ",\"\\ud800\"]}").getBytes(StandardCharsets.UTF_8),
                (message.substring(0, message.length() - 2) + ",1e999]}").getBytes(StandardCharsets.UTF_8),
                random);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (byte[] l : lines) {
            wire.writeBytes(l);
            wire.write('\n');
        }
        Path file = dir.resolve("huge.jsonl");
        OutputStream out = new FileOutputStream(file.toFile());
        out.write((LogHeader.of("s", 1, List.of("srv"), null, null, null).toJson() + "\n")
                .getBytes(StandardCharsets.UTF_8));
        LogWriter writer = new LogWriter(file, out, System::nanoTime, System.nanoTime(), LogWriter.DEFAULT_CAPACITY, () -> {
        });
        Thread thread = Thread.ofVirtual().start(writer::call);
        LineReader reader = new LineReader(new ByteArrayInputStream(wire.toByteArray()));
        Line line;
        while ((line = reader.next()) != null) {
            assertTrue(line.pieceCount() > 1, "read in chunks");
            writer.record(Source.SERVER, line);
        }
        writer.close();
        assertTrue(thread.join(Duration.ofSeconds(60)), "the writer did not finish");

        List<LogEntry> entries = SessionLog.read(file).entries();
        assertEquals(lines.size(), entries.size());
        List<Boolean> kinds = new ArrayList<>();
        for (int k = 0; k < lines.size(); k++) {
            byte[] in = lines.get(k);
            byte[] trimmed = trimmed(in);
            boolean isJson = StrictJson.judge(trimmed).readableBySerde(1);
            Payload expected = isJson ? new Payload.Message(new String(trimmed, StandardCharsets.UTF_8))
                    : new Payload.Raw(lossy(withoutTerminator(in)));
            assertEquals(expected, entries.get(k).payload(), "line " + k);
            kinds.add(isJson);
        }
        assertEquals(List.of(true, true, false, false, false, false), kinds);
    }

    private static LineBytes pieces(byte[] line, int[] cuts) {
        List<byte[]> pieces = new ArrayList<>();
        int from = 0;
        for (int c : cuts) {
            pieces.add(Arrays.copyOfRange(line, from, c));
            from = c;
        }
        pieces.add(Arrays.copyOfRange(line, from, line.length));
        return new LineBytes() {
            @Override
            public int pieceCount() {
                return pieces.size();
            }

            @Override
            public byte[] piece(int i) {
                return pieces.get(i);
            }

            @Override
            public int pieceLength(int i) {
                return pieces.get(i).length;
            }
        };
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void theOraclesAgreeWithTheShapesNamedInTheIssue() {
        byte[] bomJson = HexFormat.of().parseHex("EFBBBF7B7D");
        assertEquals(false, StrictJson.judge(bomJson).valid());
        assertEquals(false, StrictJson.judge(new byte[] {'1', 0}).valid());
        assertEquals(false, StrictJson.judge(new byte[] {'{', 0, '}', 0}).valid());
        assertEquals(true, StrictJson.judge("{\"a\":[1,-0,\"é\"]}".getBytes(StandardCharsets.UTF_8)).valid());
        assertEquals(true, StrictJson.judge("[\"\\ud800\"]".getBytes(StandardCharsets.UTF_8)).loneSurrogate());
        assertEquals("\uFFFD\uFFFD\uFFFD", lossy(HexFormat.of().parseHex("EDA080")));
        assertEquals("\uFFFD", lossy(HexFormat.of().parseHex("E282")));
        assertEquals("\uFFFDA", lossy(HexFormat.of().parseHex("F09F9841")));
    }

    private static List<byte[]> splitLines(byte[] content) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < content.length; k++) {
            if (content[k] == '\n') {
                lines.add(Arrays.copyOfRange(content, start, k));
                start = k + 1;
            }
        }
        assertEquals(content.length, start, "the log ends with a newline");
        return lines;
    }

    /** Formats 8.2: trailing CR/LF removed, then surrounding ASCII white space (Rust's is_ascii_whitespace). */
    private static byte[] trimmed(byte[] line) {
        byte[] b = withoutTerminator(line);
        int s = 0;
        int e = b.length;
        while (s < e && isAsciiWhitespace(b[s])) {
            s++;
        }
        while (e > s && isAsciiWhitespace(b[e - 1])) {
            e--;
        }
        return Arrays.copyOfRange(b, s, e);
    }

    private static boolean isAsciiWhitespace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    private static byte[] withoutTerminator(byte[] line) {
        int e = line.length;
        while (e > 0 && (line[e - 1] == '\n' || line[e - 1] == '\r')) {
            e--;
        }
        return Arrays.copyOf(line, e);
    }

    /**
     * from_utf8_lossy by its definition: a well-formed sequence is decoded; otherwise the
     * longest run of bytes that starts some well-formed sequence (at least one byte) becomes
     * one U+FFFD.
     */
    static String lossy(byte[] b) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < b.length) {
            int n = StrictJson.wellFormedLength(b, i, b.length);
            if (n > 0) {
                out.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
                continue;
            }
            int subpart = 1;
            for (int k = 3; k >= 2; k--) {
                if (i + k <= b.length && PREFIXES.contains(pack(b, i, k))) {
                    subpart = k;
                    break;
                }
            }
            out.append('\uFFFD');
            i += subpart;
        }
        return out.toString();
    }

    private static Set<Integer> prefixes() {
        Set<Integer> out = new HashSet<>();
        for (int cp = 0x80; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                continue;
            }
            byte[] enc = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            for (int k = 1; k < enc.length; k++) {
                out.add(pack(enc, 0, k));
            }
        }
        return out;
    }

    private static int pack(byte[] b, int off, int len) {
        int v = len;
        for (int k = 0; k < len; k++) {
            v = (v << 8) | (b[off + k] & 0xFF);
        }
        return v;
    }

    private static String describe(Payload p) {
        String s = p.toString();
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    private static String hex(byte[] b) {
        String h = HexFormat.ofDelimiter(" ").formatHex(b, 0, Math.min(b.length, 120));
        return b.length > 120 ? h + " ... (" + b.length + " bytes)" : h;
    }
}
