package dev.stretto.proxy.flow.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.LearnedFlow;
import dev.stretto.proxy.flow.Learning;
import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.math.Libm;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Learning a flow through the API ({@link Learning}) on the six shop sessions: the reference's
 * file from a directory and from memory alike, the rewards and the half-life as the habit counts
 * them, and what an input that cannot make a flow says.
 */
class LearningTest {

    private static final String SHOP = "home/logs/shop";
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochMilli(1_759_025_041_000L));

    private static Flow model(LearnedFlow learned) {
        return Flow.of(learned.flow());
    }

    private static String withoutClock(String flow) {
        return flow.replaceFirst("\"compiled_unix_ms\":\\d+", "\"compiled_unix_ms\":0");
    }

    @Test
    void sessionsInMemoryLearnTheReferencesFlowAsTheirDirectoryDoes() throws Exception {
        List<SessionLog> logs = new ArrayList<>();
        for (Path f : SessionLog.logFiles(Fixtures.file(SHOP))) {
            logs.add(SessionLog.read(f));
        }
        LearnedFlow fromMemory = Learning.fromSessions(logs.reversed()).domain("shop").clock(CLOCK).learn();
        LearnedFlow fromDirectory = Learning.fromDirectory(Fixtures.file(SHOP)).domain("shop").clock(CLOCK).learn();
        assertEquals(6, fromMemory.sessions());
        assertEquals(FlowFiles.toJson(fromDirectory.flow()), FlowFiles.toJson(fromMemory.flow()));
        assertEquals(withoutClock(Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8)),
                withoutClock(FlowFiles.toJson(fromMemory.flow())), "the reference's file, byte for byte");
        assertEquals("shop", fromMemory.flow().domain());
        assertEquals(4, fromMemory.flow().tools().size());
    }

    @Test
    void onlySuccessfulSessionsTrainTheHabit() throws Exception {
        Flow flow = model(Learning.fromDirectory(Fixtures.file(SHOP)).domain("shop")
                .rewards(Map.of("20260928T020400.548Z-14457", 0.0, "20260928T020400.587Z-14486", 0.5)).learn());
        assertEquals(4, flow.provenance().habitEpisodes());
        assertEquals(5, flow.vocab().size());
        assertEquals(26.0, flow.habit().base().levels().get(0).get(List.of()).total());
    }

    @Test
    void halfLifeWeighsOlderSessionsDownButLeavesAlphaAlone() throws Exception {
        Flow flow = model(Learning.fromDirectory(Fixtures.file(SHOP)).domain("shop").halfLife(2).learn());
        int[] lengths = {7, 5, 7, 5, 7, 7};
        double total = 0;
        for (int i = 0; i < lengths.length; i++) {
            double weight = Libm.pow(0.5, (lengths.length - 1 - i) / 2.0);
            for (int step = 0; step < lengths[i]; step++) {
                total += weight; // each step adds its session's weight
            }
        }
        assertEquals(total, flow.habit().base().levels().get(0).get(List.of()).total());
        assertEquals(0.6973960072663901, flow.habit().base().alpha());
        // The newest session (c6) weighs 1, the one before it 0.5^(1/2).
        assertEquals(1.0 + Math.sqrt(0.5) + 0.5 + Math.pow(0.5, 1.5) + 0.25 + Math.pow(0.5, 2.5),
                flow.habit().base().levels().get(1).get(List.of(Backoff.PAD)).total(), 1e-12);
    }

    @Test
    void inputThatCannotMakeAFlowSaysWhy() {
        assertEquals("no session logs to learn from: record some (stretto-proxy --record DIR, or a RecordingSink)",
                assertThrows(FlowException.class, () -> Learning.fromSessions(List.of()).domain("d").learn())
                        .getMessage());
        assertTrue(assertThrows(IllegalStateException.class, () -> Learning.fromSessions(List.of()).learn())
                .getMessage().contains("domain"));
        assertThrows(IllegalArgumentException.class, () -> Learning.fromSessions(List.of()).halfLife(0));
        assertTrue(assertThrows(IllegalStateException.class, () -> Learning.fromSessions(List.of()).domain("d")
                .refitHabit(true).learn()).getMessage().contains("arbiter path"));
    }
}
