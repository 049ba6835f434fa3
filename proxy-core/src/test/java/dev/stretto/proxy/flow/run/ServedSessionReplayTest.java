package dev.stretto.proxy.flow.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reference's served session replayed offline: walking its log with shop.flow.json
 * (threshold 0.3, the reach decider by default) makes the same lookups, sends the same reply,
 * and writes the reference's flow log line for line, each decision's {@code ms} set aside.
 */
class ServedSessionReplayTest {

    private static final String SERVED = "home/served/shop/20260928T020401.117Z-14662";

    @Test
    void replayingTheServedSessionWritesTheReferencesFlowLogLineForLine() throws IOException, ProxyStartException {
        Flow shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        SessionLog log = SessionLog.read(ReferenceData.file(SERVED + ".jsonl"));
        List<String> lines = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        long[] clock = {1000};
        FlowSession session = FlowSession.start(shop, "shop.flow.json", FlowOptions.DEFAULTS, log.session(),
                lines::add, warnings::add, () -> clock[0] += 7);
        assertEquals(DeciderKind.REACH, session.decider());
        assertEquals(3, new LogReplay(log, session).run());
        List<String> expected = Files.readAllLines(ReferenceData.file(SERVED + ".flow.jsonl"), StandardCharsets.UTF_8);
        assertEquals(withoutMs(expected), withoutMs(lines));
        assertTrue(lines.get(0).contains(",\"ms\":7,"), lines.get(0));
        assertEquals(List.of(), warnings);
        assertEquals(3, session.lookups());
    }

    /** The lines with each decision's {@code ms} set aside. */
    static List<String> withoutMs(List<String> lines) {
        return lines.stream().map(l -> l.replaceFirst(",\"ms\":[0-9]+,", ",\"ms\":_,")).toList();
    }
}
