package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogFileTest {

    private static final Function<String, String> HEADER = id -> "{\"session\":\"" + id + "\"}";

    @Test
    void createsTheDirectoryAndAnOwnerOnlyFileThatStartsWithItsHeader(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        SessionLogFile f = SessionLogFile.create(dir, "20260923T212000.123Z-4242", HEADER);
        f.out().write("next\n".getBytes(StandardCharsets.UTF_8));
        f.out().close();
        assertEquals(dir.resolve("20260923T212000.123Z-4242.jsonl"), f.path());
        assertEquals("20260923T212000.123Z-4242", f.session());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
        assertEquals("{\"session\":\"20260923T212000.123Z-4242\"}\nnext\n", Files.readString(f.path()));
    }

    /** Issue 7: the directories were made with the umask's mode, 0777 under umask 000. */
    @Test
    void theDirectoriesItCreatesAreForTheOwnerOnly(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        SessionLogFile.create(dir, "x", HEADER).out().close();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("a"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    }

    @Test
    void aDirectoryThatExistsKeepsItsMode(@TempDir Path tmp) throws Exception {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-x---"));
        SessionLogFile.create(tmp, "x", HEADER).out().close();
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp)));
    }

    @Test
    void aHeaderThatCannotBeWrittenLeavesNoFile(@TempDir Path tmp) {
        SessionLogFile.HeaderNotWritten e = assertThrows(SessionLogFile.HeaderNotWritten.class,
                () -> SessionLogFile.create(tmp, "x", id -> {
                    throw new IllegalStateException("no header today");
                }));
        assertEquals("no header today", e.getMessage());
        assertFalse(Files.exists(tmp.resolve("x.jsonl")));
    }

    @Test
    void neverOpensAnExistingFile(@TempDir Path tmp) throws Exception {
        Path taken = tmp.resolve("id.jsonl");
        Files.writeString(taken, "someone else's log\n");
        SessionLogFile f = SessionLogFile.create(tmp, "id", HEADER);
        f.out().close();
        assertEquals("id-1", f.session());
        assertEquals(tmp.resolve("id-1.jsonl"), f.path());
        assertEquals("someone else's log\n", Files.readString(taken));
    }

    @Test
    void discardDeletesTheFile(@TempDir Path tmp) throws Exception {
        SessionLogFile f = SessionLogFile.create(tmp, "x", HEADER);
        assertTrue(Files.exists(f.path()));
        f.discard();
        assertFalse(Files.exists(f.path()));
    }
}
