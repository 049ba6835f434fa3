package dev.stretto.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
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
}
