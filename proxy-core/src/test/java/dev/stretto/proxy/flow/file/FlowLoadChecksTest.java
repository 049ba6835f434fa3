package dev.stretto.proxy.flow.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks of a flow's load (formats 2.13) and their messages. */
class FlowLoadChecksTest {

    private static ObjectNode shop() throws IOException {
        return (ObjectNode) CanonicalJson.parse(FlowFileTest.text("home/shop.flow.json"));
    }

    private static String refusal(Consumer<ObjectNode> change) throws IOException {
        ObjectNode flow = shop();
        change.accept(flow);
        return assertThrows(FlowFormatException.class, () -> FlowFile.parse(CanonicalJson.write(flow))).getMessage();
    }

    @Test
    void aVersionOtherThanOneToThreeIsRefusedNamingThem() throws IOException {
        assertEquals("flow format 4 is not supported (this build reads 1 to 3)",
                refusal(f -> f.put("stretto_flow", 4)));
        assertEquals("flow format 0 is not supported (this build reads 1 to 3)",
                refusal(f -> f.put("stretto_flow", 0)));
    }

    @Test
    void aFileWithoutAVersionIsNotAFlow() throws IOException {
        assertEquals("not a stretto flow: it has no \"stretto_flow\" version field",
                refusal(f -> f.remove("stretto_flow")));
        assertEquals("not a stretto flow: it is not a JSON object",
                assertThrows(FlowFormatException.class, () -> FlowFile.parse("[1]")).getMessage());
        assertTrue(assertThrows(FlowFormatException.class, () -> FlowFile.parse("{\"stretto_flow\":1,"))
                .getMessage().startsWith("not a stretto flow: it is not JSON ("));
    }

    @Test
    void theVersionIsCheckedBeforeAnythingElse() {
        assertEquals("flow format 7 is not supported (this build reads 1 to 3)",
                assertThrows(FlowFormatException.class, () -> FlowFile.parse("{\"stretto_flow\":7}")).getMessage());
    }

    @Test
    void aFormatOneFileCarryingFormatTwoFieldsIsRefused() throws IOException {
        assertEquals("the flow is marked format 1 but carries thresholds, which need format 2",
                refusal(f -> f.putObject("thresholds").put("get_order_details", 0.5)));
        assertEquals("the flow is marked format 1 but carries bindings.named_other, bindings.bare, which need format 2",
                refusal(f -> {
                    ObjectNode b = (ObjectNode) f.get("bindings");
                    b.putObject("bare").put("get_user_details", 1);
                    b.putObject("named_other").putArray("get_order_details").add(1).add(2);
                }));
    }

    @Test
    void lookupThresholdsNeedFormatThreeAndKnownCases() throws IOException {
        Consumer<ObjectNode> lookups = f -> f.putObject("lookup_thresholds").putObject("get_user_details")
                .putObject("get_order_details").put("after_mention", 2).put("mentioned", 0.1);
        assertEquals("the flow is marked format 1 but carries lookup_thresholds, which need format 3",
                refusal(lookups));
        assertEquals("the flow is marked format 2 but carries lookup_thresholds, which need format 3",
                refusal(lookups.andThen(f -> f.put("stretto_flow", 2))));
        for (String bad : List.of("said", "mentioned:", "mentioned:Exchange", "mentioned:ex change",
                "after_mention:", "unmentioned:return", "mentioned:exchange:x", "mentioned:" + "a".repeat(41))) {
            assertEquals("lookup_thresholds.get_user_details.get_order_details: a case is mentioned, after_mention"
                    + " or unmentioned, the first two with :<verb> (1 to 40 letters a to z), not "
                    + CanonicalJson.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(bad)), refusal(f -> {
                        f.put("stretto_flow", 3);
                        f.putObject("lookup_thresholds").putObject("get_user_details").putObject("get_order_details")
                                .put(bad, 0.5);
                    }), bad);
        }
        assertEquals("lookup_thresholds: lookup_thresholds.get_user_details.get_order_details.mentioned is -1.0, not a"
                + " threshold (0 or more)", refusal(f -> {
                    f.put("stretto_flow", 3);
                    f.putObject("lookup_thresholds").putObject("get_user_details").putObject("get_order_details")
                            .put("mentioned", -1);
                }));
    }

    private static Consumer<ObjectNode> said(String shapes) {
        return f -> ((ObjectNode) f.get("bindings")).set("said", CanonicalJson.parse(
                "[[[\"get_order_details\",\"order_id\"],{\"values\":10,\"shapes\":" + shapes + "}]]"));
    }

    @Test
    void saidShapesNeedFormatThreeAndTheirShape() throws IOException {
        Consumer<ObjectNode> ok = said("[[\"#W9999999\",5]]");
        assertEquals("the flow is marked format 1 but carries bindings.said, which need format 3", refusal(ok));
        assertEquals("the flow is marked format 2 but carries bindings.said, lookup_thresholds, which need format 3",
                refusal(ok.andThen(f -> {
                    f.put("stretto_flow", 2);
                    f.putObject("lookup_thresholds").putObject("get_user_details").putObject("get_order_details")
                            .put("mentioned", 0.1);
                })));
        Consumer<ObjectNode> three = f -> f.put("stretto_flow", 3);
        assertEquals("bindings.said: expected a list, found an object",
                refusal(three.andThen(f -> ((ObjectNode) f.get("bindings")).putObject("said"))));
        assertEquals("bindings.said[0][1]: the field \"shapes\" is missing", refusal(three.andThen(f ->
                ((ObjectNode) f.get("bindings")).set("said", CanonicalJson.parse(
                        "[[[\"get_order_details\",\"order_id\"],{\"values\":10}]]")))));
        assertEquals("bindings.said[0][1].shapes[0][1]: expected a whole number of at least 0, found the number -1",
                refusal(three.andThen(said("[[\"#W9999999\",-1]]"))));
        assertEquals("bindings.said[0][1].shapes[0][0]: expected a string, found the number 9",
                refusal(three.andThen(said("[[9,1]]"))));
        assertEquals("bindings.said[0][1].shapes[1][0]: the key \"#W9999999\" appears twice",
                refusal(three.andThen(said("[[\"#W9999999\",1],[\"#W9999999\",2]]"))));
        assertEquals("bindings.said[0][1]: the shape \"#W 9\" is not a token of the customer's words (empty, with"
                + " whitespace, or beginning or ending with one of .,;:!?()[]\"')",
                refusal(three.andThen(said("[[\"#W 9\",1]]"))));
        assertEquals("bindings.said[0][1]: the shape \"W9.\" is not a token of the customer's words (empty, with"
                + " whitespace, or beginning or ending with one of .,;:!?()[]\"')",
                refusal(three.andThen(said("[[\"W9.\",1]]"))));
        assertEquals("bindings.said[0][1]: the shape \"\" is not a token of the customer's words (empty, with"
                + " whitespace, or beginning or ending with one of .,;:!?()[]\"')",
                refusal(three.andThen(said("[[\"\",1]]"))));
        assertEquals("bindings.said[0][1]: the shapes count 11 said values, more than the 10 values no result"
                + " held that the argument took", refusal(three.andThen(said("[[\"#W9999999\",6],[\"W9999999\",5]]"))));
        assertEquals("bindings.said[1][0]: the key [\"get_order_details\",\"order_id\"] appears twice",
                refusal(three.andThen(f -> ((ObjectNode) f.get("bindings")).set("said", CanonicalJson.parse(
                        "[[[\"get_order_details\",\"order_id\"],{\"values\":1,\"shapes\":[]}],"
                                + "[[\"get_order_details\",\"order_id\"],{\"values\":1,\"shapes\":[]}]]")))));
    }

    @Test
    void saidShapesAreReadAndWrittenBackLastInTheBindings() throws IOException {
        ObjectNode f = shop();
        f.put("stretto_flow", 3);
        said("[[\"W9999999\",2],[\"#W9999999\",5]]").accept(f);
        Flow flow = FlowFile.parse(CanonicalJson.write(f));
        assertEquals(3, flow.format());
        String written = FlowFile.toJson(flow);
        assertTrue(written.startsWith("{\"stretto_flow\":3,"));
        assertTrue(written.contains(",\"said\":[[[\"get_order_details\",\"order_id\"],{\"values\":10,\"shapes\":"
                + "[[\"#W9999999\",5],[\"W9999999\",2]]}]]},\"model\":"), written);
        assertEquals(written, FlowFile.toJson(FlowFile.parse(written)));
    }

    @Test
    void lookupThresholdsAreReadAndWrittenBackLastInCaseOrder() throws IOException {
        ObjectNode f = shop();
        f.put("stretto_flow", 3);
        f.putObject("lookup_thresholds").putObject("get_user_details").putObject("get_order_details")
                .put("unmentioned", 0.5).put("mentioned:return", 2).put("mentioned", 0.05).put("after_mention", 2)
                .put("mentioned:exchange", 0.1);
        Flow flow = FlowFile.parse(CanonicalJson.write(f));
        assertEquals(3, flow.format());
        assertEquals(2.0, flow.lookupThresholds().get("get_user_details", "get_order_details",
                LookupThresholds.Case.AFTER_MENTION));
        assertEquals(null, flow.lookupThresholds().get("get_user_details", "get_product_details",
                LookupThresholds.Case.MENTIONED));
        String written = FlowFile.toJson(flow);
        assertTrue(written.startsWith("{\"stretto_flow\":3,"));
        assertTrue(written.endsWith(",\"lookup_thresholds\":{\"get_user_details\":{\"get_order_details\":"
                + "{\"mentioned\":0.05,\"mentioned:exchange\":0.1,\"mentioned:return\":2.0,\"after_mention\":2.0,"
                + "\"unmentioned\":0.5}}}}"), written);
        assertEquals(0.1, flow.lookupThresholds().get("get_user_details", "get_order_details",
                new LookupThresholds.When(LookupThresholds.Case.MENTIONED, "exchange")));
        assertEquals(written, FlowFile.toJson(FlowFile.parse(written)));
        // Without them the flow is the lowest format that holds it again, the reference's bytes.
        Flow none = flow.withLookupThresholds(LookupThresholds.NONE);
        assertEquals(1, none.format());
        assertEquals(FlowFileTest.text("home/shop.flow.json"), FlowFile.toJson(none));
    }

    @Test
    void theSameFieldsAreAcceptedInFormatTwoAndMakeAWriterKeepTwo() throws IOException {
        ObjectNode f = shop();
        f.put("stretto_flow", 2);
        f.putObject("thresholds").put("get_user_details", 1.5).put("find_user_id_by_email", 1);
        Flow flow = FlowFile.parse(CanonicalJson.write(f));
        assertEquals(2, flow.format());
        assertEquals(1.5, flow.thresholds().get("get_user_details"));
        String written = FlowFile.toJson(flow);
        assertTrue(written.startsWith("{\"stretto_flow\":2,"));
        assertTrue(written.contains(",\"thresholds\":{\"find_user_id_by_email\":1.0,\"get_user_details\":1.5},"
                + "\"contracts\":"), written);
    }

    @Test
    void aProgramOtherThanTheStandardRunIsRefused() throws IOException {
        String message = refusal(f -> ((ObjectNode) f.get("program")).put("fugue_program", 2));
        assertEquals("program: the flow's program is not the standard run that stretto learn writes; this build runs"
                + " only that program (it is code, so no other is loaded)", message);
    }

    @Test
    void theStandardProgramIsRecognisedWhateverItsKeyOrder() throws IOException {
        ObjectNode f = shop();
        // Sorted keys: the same tree, written in another order.
        f.set("program", CanonicalJson.parse(CanonicalJson.write(f.get("program"))));
        String sorted = CanonicalJson.write(f);
        Flow flow = FlowFile.parse(sorted);
        assertEquals(FlowFileTest.text("home/shop.flow.json"), FlowFile.toJson(flow));
    }

    @Test
    void aFieldOfTheWrongShapeIsNamedWithItsPlace() throws IOException {
        assertEquals("bindings.agreed.get_order_details: expected [[agreed, calls], [agreed, calls]], found a list of 1",
                refusal(f -> ((ObjectNode) f.get("bindings").get("agreed")).putArray("get_order_details").addArray()));
        assertEquals("habit.base.levels[1][2][1].total: expected a number, found a string",
                refusal(f -> ((ObjectNode) f.get("habit").get("base").get("levels").get(1).get(2).get(1))
                        .put("total", "six")));
        assertEquals("sites: the field \"reads\" is missing", refusal(f -> ((ObjectNode) f.get("sites")).remove("reads")));
        assertEquals("vocab[0]: expected \"Respond\" or {\"Tool\": name}, found a string",
                refusal(f -> f.withArray("vocab").set(0, CanonicalJson.parse("\"Reply\""))));
        assertEquals("manifest.tools.get_order_details: expected read, write or generic, found a string",
                refusal(f -> ((ObjectNode) f.get("manifest").get("tools")).put("get_order_details", "lookup")));
        assertEquals("bindings.args.get_order_details[1].order_id: expected a whole number of at least 0, found the"
                + " number -1", refusal(f -> ((ObjectNode) f.get("bindings").get("args").get("get_order_details").get(1))
                .put("order_id", -1)));
    }

    @Test
    void countsOutsideTheVocabularyAreRefused() throws IOException {
        assertEquals("habit.base: levels[0]: action id 9 is not below vocab_size 6",
                refusal(f -> ((com.fasterxml.jackson.databind.node.ArrayNode) f.get("habit").get("base").get("levels")
                        .get(0).get(0).get(1).get("by_action")).addArray().add(9).add(1.0)));
        assertEquals("the flow: reach.vocab_size is 7, but the vocabulary has 5 actions, so it should be 6 (one more"
                + " for any other)", refusal(f -> ((ObjectNode) f.get("reach")).put("vocab_size", 7)));
    }

    @Test
    void aKeyGivenTwiceInPairsIsRefused() throws IOException {
        assertEquals("sites.next[1][0]: the key [\"find_user_id_by_email\",false] appears twice",
                refusal(f -> ((com.fasterxml.jackson.databind.node.ArrayNode) f.get("sites").get("next"))
                        .insert(0, f.get("sites").get("next").get(0).deepCopy())));
    }

    @Test
    void aFileThatCannotBeUsedIsNamedInTheMessage(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("x.flow.json");
        Files.writeString(file, "{\"stretto_flow\":9}");
        assertEquals(file + ": flow format 9 is not supported (this build reads 1 to 3)",
                assertThrows(FlowFormatException.class, () -> FlowFile.read(file)).getMessage());
        Files.write(file, new byte[] {'{', (byte) 0xff, '}'});
        assertEquals(file + ": not a stretto flow: it is not UTF-8 text",
                assertThrows(FlowFormatException.class, () -> FlowFile.read(file)).getMessage());
    }

    @Test
    void absentOptionalFieldsReadAsEmptyAndUnknownFieldsAreIgnored() throws IOException {
        ObjectNode f = shop();
        f.remove("program");
        f.remove("reach");
        f.remove("contracts");
        f.put("something_newer", true);
        Flow flow = FlowFile.parse(CanonicalJson.write(f));
        assertEquals(null, flow.reach());
        assertTrue(flow.contracts().isEmpty());
        assertEquals(false, flow.sites().everyRead());
    }
}
