package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import dev.stretto.trace.log.LogHeader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogFileTest {

    private static LogHeader header(String id) {
        return LogHeader.of(id, 1, List.of("srv"), null, null, null);
    }

    @Test
    void createsTheDirectoryAndAnOwnerOnlyFileThatTheSinkStartsWithItsHeader(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        SessionLogFile f = SessionLogFile.create(dir, "20260923T212000.123Z-4242");
        assertEquals("", Files.readString(f.path()));
        LogFileSink sink = new LogFileSink(f);
        sink.open(header(f.session()));
        f.out().write("next\n".getBytes(StandardCharsets.UTF_8));
        sink.close();
        assertEquals(dir.resolve("20260923T212000.123Z-4242.jsonl"), f.path());
        assertEquals("20260923T212000.123Z-4242", f.session());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
        assertEquals("{\"stretto_mcp_log\":2,\"session\":\"20260923T212000.123Z-4242\",\"started_unix_ms\":1,"
                + "\"server_command\":[\"srv\"],\"domain\":null,\"agent_model\":null}\nnext\n", Files.readString(f.path()));
    }

    /** Issue 7: the directories were made with the umask's mode, 0777 under umask 000. */
    @Test
    void theDirectoriesItCreatesAreForTheOwnerOnly(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        SessionLogFile.create(dir, "x").out().close();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("a"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    }

    /** --record-sync forces the file's directory, and the parent of each directory made for it. */
    @Test
    void itKnowsTheDirectoriesWhoseEntriesNameTheFile(@TempDir Path tmp) throws Exception {
        SessionLogFile deep = SessionLogFile.create(tmp.resolve("a/b"), "x");
        assertEquals(List.of(tmp.resolve("a/b"), tmp.resolve("a"), tmp), deep.directories());
        deep.syncDirectories();
        deep.out().close();
        SessionLogFile again = SessionLogFile.create(tmp.resolve("a/b"), "y");
        assertEquals(List.of(tmp.resolve("a/b")), again.directories());
        again.out().close();
    }

    @Test
    void aSyncingSinkWritesTheHeaderAndEachGroupOut(@TempDir Path tmp) throws Exception {
        SessionLogFile f = SessionLogFile.create(tmp, "x");
        LogFileSink sink = new LogFileSink(f, true);
        sink.open(header("x"));
        assertTrue(Files.readString(f.path()).startsWith("{\"stretto_mcp_log\":2,"), "the header is written at once");
        sink.line(3, dev.stretto.trace.log.Source.CLIENT, new dev.stretto.proxy.io.Line(
                "{\"a\":1}".getBytes(StandardCharsets.UTF_8), true));
        sink.sync();
        assertTrue(Files.readString(f.path()).endsWith("\n{\"t_ms\":3,\"from\":\"client\",\"message\":{\"a\":1}}\n"),
                "a synced entry is in the file, not in the writer's buffer");
        sink.close();
    }

    @Test
    void aDirectoryThatExistsKeepsItsMode(@TempDir Path tmp) throws Exception {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-x---"));
        SessionLogFile.create(tmp, "x").out().close();
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp)));
    }

    @Test
    void aHeaderThatCannotBeWrittenLeavesNoFile(@TempDir Path tmp) throws Exception {
        SessionLogFile f = SessionLogFile.create(tmp, "x");
        f.out().close();
        LogFileSink.HeaderNotWritten e = assertThrows(LogFileSink.HeaderNotWritten.class,
                () -> new LogFileSink(f).open(header("x")));
        assertEquals("Stream Closed", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("x.jsonl")));
    }

    @Test
    void neverOpensAnExistingFile(@TempDir Path tmp) throws Exception {
        Path taken = tmp.resolve("id.jsonl");
        Files.writeString(taken, "someone else's log\n");
        SessionLogFile f = SessionLogFile.create(tmp, "id");
        f.out().close();
        assertEquals("id-1", f.session());
        assertEquals(tmp.resolve("id-1.jsonl"), f.path());
        assertEquals("someone else's log\n", Files.readString(taken));
    }

    @Test
    void discardDeletesTheFile(@TempDir Path tmp) throws Exception {
        SessionLogFile f = SessionLogFile.create(tmp, "x");
        assertTrue(Files.exists(f.path()));
        f.discard();
        assertFalse(Files.exists(f.path()));
    }
}
