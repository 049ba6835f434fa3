package dev.stretto.proxy.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.ProxyMessages.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoggerTest {

    /** Collects "LEVEL text" for the levels at {@code threshold} and above. */
    private record Collect(List<String> said, Level threshold, AtomicInteger made) implements ProxyMessages {
        Collect(Level threshold) {
            this(new CopyOnWriteArrayList<>(), threshold, new AtomicInteger());
        }

        @Override
        public void message(Level level, String text) {
            made.incrementAndGet();
            said.add(level + " " + text);
        }

        @Override
        public boolean enabled(Level level) {
            return level.passes(threshold);
        }
    }

    @Test
    void placeholdersAreFilledInOrderAndAMessageWithoutArgumentsStaysAsItIs() {
        assertEquals("a 1 b [x] c {}", Logger.format("a {} b {} c {}", 1, List.of("x")));
        assertEquals("no args {}", Logger.format("no args {}"));
        assertEquals("null here", Logger.format("{} here", (Object) null));
        Collect c = new Collect(Level.TRACE);
        Logger.runWith(c, () -> {
            Logger.warn((Object) "100% {} as written");
            Logger.info("{} of {}", 3, 4);
            Logger.error("plain");
        });
        assertEquals(List.of("WARN 100% {} as written", "INFO 3 of 4", "ERROR plain"), c.said());
    }

    @Test
    void aLevelTheHandlerDoesNotWantIsNeverMade() {
        Collect c = new Collect(Level.WARN);
        Object costly = new Object() {
            @Override
            public String toString() {
                throw new AssertionError("the text of a message nobody wants was made");
            }
        };
        Logger.runWith(c, () -> {
            Logger.debug("expensive {}", costly);
            Logger.trace("expensive {}", costly);
            Logger.info("expensive {}", costly);
            Logger.warn("kept {}", 1);
        });
        assertEquals(List.of("WARN kept 1"), c.said());
    }

    @Test
    void aFailureGoesWithItsStackTraceAndAFailingHandlerLosesOnlyThatMessage() {
        Collect c = new Collect(Level.DEBUG);
        Logger.runWith(c, () -> Logger.debug(new IllegalStateException("boom"), "listener {}", "failed"));
        assertTrue(c.said().getFirst().startsWith("DEBUG listener failed: java.lang.IllegalStateException: boom\n\tat "),
                c.said().getFirst());

        ProxyMessages throwing = (level, text) -> {
            throw new IllegalStateException("the handler broke");
        };
        Logger.runWith(throwing, () -> Logger.warn("lost"));
    }

    @Test
    void aThreadOfItsOwnSpeaksToTheHandlerOfWhoStartedItAndNestedBindingsWin() throws Exception {
        Collect outer = new Collect(Level.INFO);
        Collect inner = new Collect(Level.INFO);
        Logger.runWith(outer, () -> {
            Thread t = Thread.ofPlatform().start(Logger.carry(() -> Logger.info("from a platform thread")));
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            Logger.runWith(inner, () -> Logger.info("inside"));
            Logger.info("outside again");
        });
        assertEquals(List.of("INFO from a platform thread", "INFO outside again"), outer.said());
        assertEquals(List.of("INFO inside"), inner.said());
    }
}
