package dev.stretto.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildReaperTest {

    @Test
    void aTaskForTheFirstStartRunsOnceTheFirstServerHasStartedAndAtOnceWhenOneHas() throws Exception {
        ChildReaper reaper = new ChildReaper();
        List<String> ran = new CopyOnWriteArrayList<>();
        reaper.afterFirstStart(() -> ran.add("before"));
        assertEquals(List.of(), ran, "no server has been started yet");

        Process first = reaper.start(new ProcessBuilder("true")).process();
        assertEquals(List.of("before"), ran);
        reaper.start(new ProcessBuilder("true")).process().waitFor(10, TimeUnit.SECONDS);
        assertEquals(List.of("before"), ran, "the task runs once, not at every start");

        reaper.afterFirstStart(() -> ran.add("after"));
        assertEquals(List.of("before", "after"), ran);
        first.waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void aServerThatCannotBeStartedIsNoFirstStart() {
        ChildReaper reaper = new ChildReaper();
        List<String> ran = new CopyOnWriteArrayList<>();
        reaper.afterFirstStart(() -> ran.add("ran"));
        assertThrows(IOException.class, () -> reaper.start(new ProcessBuilder("/nowhere/server")));
        assertEquals(List.of(), ran);
    }

    @Test
    void whatAServerLeftBeforeTheJvmWasASubreaperIsFoundByItsMarkWhereverItWasReParented() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the marks are read from /proc");
        ChildReaper reaper = new ChildReaper();
        ChildReaper other = new ChildReaper();
        // The shell exits at once: its background sleep goes to init (this JVM is no subreaper).
        ChildReaper.Server server = reaper.start(new ProcessBuilder("sh", "-c", "sleep 300 >/dev/null & echo $!"));
        ChildReaper.Server another = other.start(new ProcessBuilder("sh", "-c", "sleep 300 >/dev/null & echo $!"));
        long orphan = Long.parseLong(new String(server.process().getInputStream().readAllBytes(),
                StandardCharsets.US_ASCII).trim());
        long notMine = Long.parseLong(new String(another.process().getInputStream().readAllBytes(),
                StandardCharsets.US_ASCII).trim());
        ProcessHandle orphanHandle = ProcessHandle.of(orphan).orElseThrow();
        ProcessHandle notMineHandle = ProcessHandle.of(notMine).orElseThrow();
        try {
            assertTrue(server.process().waitFor(10, TimeUnit.SECONDS));
            assertTrue(server.beforeActive(), "started while the JVM was no subreaper");
            assertEquals(List.of(), reaper.orphans(server.mark()), "not re-parented to this JVM");
            List<Long> found = reaper.marked(server.mark(), server.process().pid()).stream()
                    .map(ProcessHandle::pid).toList();
            assertEquals(List.of(orphan), found, "the server's own sleep, and not the other reaper's");
            assertEquals(List.of(), ChildReaper.none().marked(null, 0), "nothing without a mark");
        } finally {
            orphanHandle.destroyForcibly();
            notMineHandle.destroyForcibly();
        }
    }
}
