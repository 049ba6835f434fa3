package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto flow}: a flow log as a person reads it. */
class FlowCommandTest {

    private static StrettoTest.Run run(String... args) {
        return StrettoTest.run(false, args);
    }

    @Test
    void theServedSessionsFlowLogShowsEachRunWithItsDecisionsLookupsAndSurprise() {
        String log = Fixtures.file("home/served/shop/20260928T020401.117Z-14662.flow.jsonl").toString();
        StrettoTest.Run r = run("flow", log);
        assertEquals("", r.err());
        assertEquals(0, r.status());
        assertEquals("flow log " + log + "\n"
                + "2 runs, 5 decisions, 3 lookups made\n"
                + "\n"
                + "after call 3: find_user_id_by_email\n"
                + "  decide#0  at find_user_id_by_email  look up get_user_details {\"user_id\":\"user_41\"}"
                + "  p 0.99, arguments 0.88  made\n"
                + "  decide#1  at get_user_details  look up get_order_details {\"order_id\":\"#W41a\"}"
                + "  p 1.00, arguments 0.93  made\n"
                + "  decide#2  at get_order_details  look up get_order_details {\"order_id\":\"#W41b\"}"
                + "  p 0.95, arguments 0.93  made\n"
                + "  decide#3  at get_order_details  hand back: get_order_details at 0.05, below 0.3\n"
                + "  3 lookups made, surprise 0.28\n"
                + "\n"
                + "after call 4: cancel_pending_order\n"
                + "  decide#0  at cancel_pending_order  hand back: no lookups followed here in training\n"
                + "  no lookup made, surprise 0.00\n", r.out());
    }

    @Test
    void lookupsNotMadeFailedOrUnansweredAndRunsCutShortAreMarked(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("s.flow.jsonl");
        Files.writeString(log, String.join("\n",
                "{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":\"a\",\"arguments\":{\"k\":\"v\"},\"binding\":0.5,"
                        + "\"key\":null,\"ms\":3,\"oracle\":{},\"predicates\":{},\"prob\":0.8,\"probs\":{},\"shadow\":true,"
                        + "\"site\":\"s (error)\",\"tool\":\"t\"}",
                "{\"after\":\"a\",\"run\":{\"call\":\"s\",\"failed\":true,\"max_lookups\":8,\"sites\":[[\"decide#0\",0,0.0]],"
                        + "\"surprise\":-0.0}}",
                "{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":5,\"arguments\":{},\"binding\":1.0,"
                        + "\"key\":\"0123456789abcdef\",\"ms\":0,\"oracle\":{},\"policy\":{\"explored\":true,\"propensity\":0.05},"
                        + "\"predicates\":{},\"prob\":0.4,\"probs\":{},\"site\":\"s\",\"tool\":\"t\"}",
                "{\"action\":\"lookup\",\"address\":\"decide#1\",\"after\":5,\"arguments\":{},\"binding\":1.0,\"key\":null,"
                        + "\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.4,\"probs\":{},\"site\":\"t (error)\",\"tool\":\"u\"}",
                "{\"after\":5,\"run\":{\"call\":\"s\",\"failed\":false,\"max_lookups\":8,\"sites\":[[\"decide#0\",1,0.0],"
                        + "[\"outcome#0\",false,-1.0],[\"decide#1\",2,0.0]],\"surprise\":1.0}}",
                "{\"action\":\"hand_back\",\"address\":\"decide#0\",\"after\":6,\"binding\":null,\"key\":null,\"ms\":0,"
                        + "\"oracle\":{},\"predicates\":{},\"prob\":null,\"probs\":{},\"reason\":\"the last step is not a tool call\","
                        + "\"site\":null}",
                "{\"after\":6,\"run\":{\"call\":\"s\""));
        StrettoTest.Run r = run("flow", log.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.contains("3 runs, 4 decisions, 2 lookups made"), out);
        assertTrue(out.contains("after call a: s (failed)\n  decide#0  at s (error)  look up t {\"k\":\"v\"}  p 0.80,"
                + " arguments 0.50  NOT MADE  SHADOW  3 ms\n  no lookup made, surprise 0.00\n"), out);
        assertTrue(out.contains("decide#0  at s  look up t {}  p 0.40, arguments 1.00  made, FAILED  explored,"
                + " propensity 0.05  oracle 0123456789ab\n"), out);
        assertTrue(out.contains("decide#1  at t (error)  look up u {}  p 0.40, arguments 1.00  made, no answer\n"), out);
        assertTrue(out.contains("after call 6\n  decide#0  at (no call)  hand back: the last step is not a tool call\n"
                + "  no run line: the session ended during this run\n"), out);
    }

    @Test
    void aLineThatIsNotAFlowLogLineExits1WithItsLineNumber(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("x.flow.jsonl");
        Files.writeString(log, "{\"after\":1,\"run\":{\"call\":\"s\",\"failed\":false,\"max_lookups\":8,\"sites\":[],"
                + "\"surprise\":-0.0}}\n{\"action\":\"jump\",\"after\":2}\n");
        assertEquals(new StrettoTest.Run(1, "", "stretto: " + log + ":2: \"action\" must be \"lookup\" or \"hand_back\","
                + " not \"jump\"\n"), run("flow", log.toString()));
        Files.writeString(log, "{oops}\n{}\n");
        StrettoTest.Run bad = run("flow", log.toString());
        assertEquals(1, bad.status());
        assertTrue(bad.err().startsWith("stretto: " + log + ":1: not JSON ("), bad.err());
        String session = Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl").toString();
        assertEquals(new StrettoTest.Run(1, "", "stretto: " + session + ":1: \"after\" is missing: not a flow log line\n"),
                run("flow", session));
    }

    @Test
    void aMissingFileOrADirectoryExits1(@TempDir Path dir) {
        assertEquals(new StrettoTest.Run(1, "", "stretto: " + dir.resolve("no.flow.jsonl") + ": no such file or directory\n"),
                run("flow", dir.resolve("no.flow.jsonl").toString()));
        assertEquals(new StrettoTest.Run(1, "", "stretto: " + dir + ": is a directory, not a flow log\n"),
                run("flow", dir.toString()));
    }
}
