package dev.stretto.proxy.flow.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.model.Action;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.model.Program;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.trace.manifest.ToolKind;
import dev.stretto.proxy.testing.ReferenceData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlowFileTest {

    static final List<String> EXAMPLES = List.of("retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json");

    static String text(String fixture) throws IOException {
        return Files.readString(ReferenceData.file(fixture), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void everyExampleFlowReadsAndWritesBackByteForByte(String fixture) throws IOException {
        String original = text(fixture);
        Flow flow = FlowFile.read(ReferenceData.file(fixture));
        assertEquals(original, FlowFile.toJson(flow));
    }

    @Test
    void theShopFlowHasTheStandardProgramReachAndContracts() throws IOException {
        Flow shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        assertEquals(1, shop.format());
        assertEquals(Program.STANDARD, shop.program());
        assertEquals(6, shop.reach().vocabSize());
        assertEquals(0.6973960072663901, shop.reach().alpha());
        assertEquals("order_id:string!, reason:string!", shop.contracts().get("cancel_pending_order"));
        assertEquals(List.of(Action.RESPOND, new Action.Tool("cancel_pending_order"),
                new Action.Tool("find_user_id_by_email"), new Action.Tool("get_order_details"),
                new Action.Tool("get_user_details")), shop.vocab());
        assertEquals(ToolKind.WRITE, shop.manifest().tools().get("cancel_pending_order"));
        assertEquals(Map.of("get_order_details", 6L),
                shop.sites().next().get(new Sites.Site("get_user_details", false)));
        assertEquals(List.of("order_id"), shop.bindings().args().get("get_order_details").required());
        assertEquals(new Bindings.Tally(12, 12), shop.bindings().agreed().get("get_order_details").unmentioned());
        assertEquals(List.of(new Bindings.SourcePath("get_user_details", "$.orders[*]")),
                shop.bindings().sources().get(new Bindings.ToolArg("get_order_details", "order_id")).usable());
        assertTrue(shop.bindings().sources().get(new Bindings.ToolArg("find_user_id_by_email", "email")).usable()
                .isEmpty());
        assertNull(shop.promoted());
        assertTrue(shop.thresholds().isEmpty());
    }

    @Test
    void theOlderFlowsHaveNoProgramReachOrContractsAndKeepItThatWay() throws IOException {
        Flow five = FlowFile.read(ReferenceData.file("retail-5-sessions.flow.json"));
        assertNull(five.program());
        assertEquals(Program.STANDARD, five.programOrStandard());
        assertNull(five.reach());
        assertTrue(five.contracts().isEmpty());
        assertFalse(FlowFile.toJson(five).contains("\"program\""));
    }

    @Test
    void theShippedArbiterKeepsItsPredicatesWeighedFoldsAndModel() throws IOException {
        Flow arbiter = FlowFile.read(ReferenceData.file("retail-5-sessions-shipped-arbiter.flow.json"));
        assertEquals(3, arbiter.predicates().size());
        assertEquals(arbiter.predicates(), arbiter.weighed());
        assertEquals(Predicate.Favors.SAME_LOOKUP, arbiter.predicates().get(0).favors());
        assertEquals(Predicate.Favors.HAND_BACK, arbiter.predicates().get(2).favors());
        assertEquals(5, arbiter.folds().size());
        assertEquals(8, arbiter.folds().get(0).weights().size());
        assertEquals(0.7518280522933747, arbiter.folds().get(0).rates().agree());
        assertEquals("calculate", arbiter.folds().get(0).rates().sites().get(0).site());
        assertEquals(26.0, arbiter.folds().get(0).rates().sites().get(0).decisions());
        assertEquals("jev-latest", arbiter.model());
        assertTrue(arbiter.hasArbiter());
    }

    @Test
    void aWrittenFileIsReplacedWholeAndReadsBack(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("shop.flow.json");
        Files.writeString(target, "old");
        Flow shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        FlowFile.write(shop, target);
        assertEquals(text("home/shop.flow.json"), Files.readString(target));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(target), files.toList());
        }
    }
}
