package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogFileTest {

    @Test
    void createsTheDirectoryAndAnOwnerOnlyFile(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a/b");
        SessionLogFile f = SessionLogFile.create(dir, "20260923T212000.123Z-4242");
        f.out().close();
        assertEquals(dir.resolve("20260923T212000.123Z-4242.jsonl"), f.path());
        assertEquals("20260923T212000.123Z-4242", f.session());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path())));
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
