package dev.stretto.proxy.flow.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.Learning;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow learned with {@code --bind-said} served by the reach decider, on τ²-like sessions:
 * most customers give their order id in their first message, and the agent reads that order
 * right after finding the user, never the user's details; the others name no order, and the
 * agent reads the details and then the first order. Served on a new session whose customer
 * gives an order id (in lower case), the flow looks exactly that order up after the user is
 * found; without the option it can bind no order there.
 */
class SaidBindingServingTest {

    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochMilli(1_796_122_800_000L));

    /** 16 sessions whose customer gives the order id, 4 whose customer does not. */
    static Path sessions(Path dir) throws IOException {
        List<String> opening = Files.readAllLines(ReferenceData.file("home/logs/shop/20260928T020400.548Z-14457.jsonl"),
                StandardCharsets.UTF_8).subList(1, 6);
        Path logs = Files.createDirectories(dir.resolve("logs"));
        for (int i = 0; i < 20; i++) {
            String session = String.format("20261201T11%02d00.000Z-%d", i, 700 + i);
            List<String> lines = new ArrayList<>();
            lines.add("{\"stretto_mcp_log\":2,\"session\":\"" + session + "\",\"started_unix_ms\":" + (1796122800000L
                    + i * 60_000L) + ",\"server_command\":[\"stretto-mcp-demo\",\"--world\",\"retail\"],\"domain\":"
                    + "\"retail\",\"agent_model\":null}");
            lines.addAll(opening);
            boolean gives = i < 16;
            String user = "user_" + i;
            String order = String.format("#W%07d", 2_378_100 + i);
            String other = String.format("#W%07d", 3_000_000 + i);
            String says = gives ? "You received your order " + order + " and wish to cancel it. I am c" + i
                    + "@example.com." : "I want to cancel an order. I am c" + i + "@example.com.";
            lines.add("{\"t_ms\":90,\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":"
                    + TextNode.valueOf(says) + "}}");
            int[] at = {3};
            call(lines, at, "find_user_id_by_email", "{\"email\":\"c" + i + "@example.com\"}", user);
            if (!gives) {
                call(lines, at, "get_user_details", "{\"user_id\":\"" + user + "\"}", "{\"email\":\"c" + i
                        + "@example.com\",\"orders\":[\"" + order + "\",\"" + other + "\"],\"user_id\":\"" + user + "\"}");
            }
            call(lines, at, "get_order_details", "{\"order_id\":\"" + order + "\"}", order(order, user));
            call(lines, at, "cancel_pending_order", "{\"order_id\":\"" + order + "\",\"reason\":\"no longer needed\"}",
                    "{\"order_id\":\"" + order + "\",\"status\":\"cancelled\"}");
            Files.write(logs.resolve(session + ".jsonl"), lines, StandardCharsets.UTF_8);
        }
        return logs;
    }

    static String order(String id, String user) {
        return "{\"order_id\":\"" + id + "\",\"status\":\"pending\",\"user_id\":\"" + user + "\"}";
    }

    private static void call(List<String> lines, int[] id, String tool, String args, String answer) {
        long t = 100L + id[0] * 600L;
        lines.add("{\"t_ms\":" + t + ",\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":" + id[0]
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}}");
        lines.add("{\"t_ms\":" + (t + 1) + ",\"from\":\"server\",\"message\":{\"id\":" + id[0] + ",\"jsonrpc\":"
                + "\"2.0\",\"result\":{\"content\":[{\"text\":" + TextNode.valueOf(answer)
                + ",\"type\":\"text\"}],\"isError\":false}}}");
        id[0]++;
    }

    private static Flow learn(Path logs, boolean said) throws Exception {
        return Flow.of(Learning.fromDirectory(logs).domain("retail").habitOnly().bindSaid(said).clock(CLOCK).learn()
                .flow());
    }

    /**
     * Serves the new session from the user's id on: decides, makes each lookup chosen (the
     * server answering from {@code answers}), and decides again, until the flow hands back.
     *
     * @return each lookup made, as {@code tool arguments}
     */
    private static List<String> serve(Flow flow, String says) {
        ToolCall find = new ToolCall("7", "find_user_id_by_email", CanonicalJson.parse("{\"email\":\"c99@example.com\"}"));
        Episode e = new Episode("new", "new", 0, "retail", "agent", 0.0, List.of(new Event.User(says),
                new Event.Assistant(null, List.of(find), null), new Event.ToolResult("7", find.name(), false, "user_99")));
        EpisodeCut cut = EpisodeCut.afterCall(e, "7").orElseThrow();
        FlowDecider decider = new FlowDecider(flow, Scorer.reach(flow), 0.3, null, "new");
        List<String> made = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            Decision d = ((DecisionStep.Decided) decider.decide(cut, t -> null)).decision();
            if (!d.lookup()) {
                break;
            }
            made.add(d.tool() + " " + CanonicalJson.write(d.arguments()));
            String answer = d.tool().equals("get_order_details") ? order(d.arguments().get("order_id").textValue(),
                    "user_99") : "{\"orders\":[\"#W0000001\"],\"user_id\":\"user_99\"}";
            cut = cut.withAnswered(new ToolCall("L" + n, d.tool(), d.arguments()), false, answer);
        }
        return made;
    }

    @Test
    void theOrderTheCustomerGaveIsLookedUpRightAfterTheUserIsFound(@TempDir Path tmp) throws Exception {
        Path logs = sessions(tmp);
        Flow said = learn(logs, true);
        assertEquals(3, said.format());
        String file = FlowFiles.toJson(said);
        // The emails the customers gave are said values too, of two shapes (c9@ and c19@ are c9@ and c99@). The
        // values counted are those no result held: the 16 order ids the customers gave, not the 4 read from details.
        assertTrue(file.contains(",\"said\":[[[\"find_user_id_by_email\",\"email\"],{\"values\":20,\"shapes\":"
                + "[[\"c99@example.com\",10],[\"c9@example.com\",10]]}],[[\"get_order_details\",\"order_id\"],"
                + "{\"values\":16,\"shapes\":[[\"#W9999999\",16]]}]]},\"model\":"), file);
        assertEquals(List.of("get_order_details {\"order_id\":\"#W2378156\"}"),
                serve(said, "Hi. You received your order #w2378156 and wish to exchange it; c99@example.com"));
        // A customer who names no order: the said shape binds nothing, and the flow goes by the user's details.
        assertEquals(List.of(), serve(said, "I want to exchange an order; c99@example.com"));
        assertEquals(serve(learn(logs, false), "I want to exchange an order; c99@example.com"),
                serve(said, "I want to exchange an order; c99@example.com"));
    }

    @Test
    void withoutTheOptionTheFlowCannotBindTheOrderAfterTheUserIsFound(@TempDir Path tmp) throws Exception {
        Flow plain = learn(sessions(tmp), false);
        assertEquals(1, plain.format());
        assertTrue(!FlowFiles.toJson(plain).contains("\"said\""));
        assertEquals(List.of(), serve(plain, "Hi. You received your order #w2378156 and wish to exchange it"));
    }
}
