package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.io.Line;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the conversation file: offsets, complete lines, and a file that is truncated or replaced. */
class ContextFileTest {

    private static List<String> read(ContextFile f) {
        return f.readNew().stream().map(l -> new String(l.bytes(), StandardCharsets.UTF_8)).toList();
    }

    private static void append(Path p, String s) throws Exception {
        Files.writeString(p, s, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aMissingFileIsAnEmptyConversationUntilItAppears(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("c.jsonl");
        ContextFile f = new ContextFile(p);
        assertEquals(List.of(), read(f));
        append(p, "a\n");
        assertEquals(List.of("a"), read(f));
    }

    @Test
    void onlyCompleteLinesAreReadEachOnceAndBlankOnesAreSkipped(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("c.jsonl");
        ContextFile f = new ContextFile(p);
        append(p, "one\n\n  \r\ntw");
        assertEquals(List.of("one"), read(f));
        assertEquals(List.of(), read(f));
        append(p, "o\r\nthree\n");
        assertEquals(List.of("two\r", "three"), read(f), "the \\r stays part of the line, as on the wire");
        List<Line> none = f.readNew();
        assertEquals(0, none.size());
    }

    @Test
    void aTruncatedFileIsReadAgainFromItsStart(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("c.jsonl");
        ContextFile f = new ContextFile(p);
        append(p, "first conversation, a long line\n");
        assertEquals(List.of("first conversation, a long line"), read(f));
        Files.writeString(p, "new\n", StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(List.of("new"), read(f));
    }

    @Test
    void aReplacedFileIsReadFromItsStartEvenWhenItIsLonger(@TempDir Path tmp) throws Exception {
        Path p = tmp.resolve("c.jsonl");
        ContextFile f = new ContextFile(p);
        append(p, "old\n");
        assertEquals(List.of("old"), read(f));
        Path next = tmp.resolve("next.jsonl");
        Files.writeString(next, "replaced one\nreplaced two\n");
        Files.move(next, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertEquals(List.of("replaced one", "replaced two"), read(f));
    }

    @Test
    void aDirectoryIsNotAConversation(@TempDir Path tmp) {
        assertEquals(List.of(), read(new ContextFile(tmp)));
    }
}
