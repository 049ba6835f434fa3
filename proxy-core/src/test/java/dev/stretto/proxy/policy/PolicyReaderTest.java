package dev.stretto.proxy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyException;
import dev.stretto.proxy.PolicyProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading policies: the example policy taken as written in JSON and YAML; every hostile or
 * mistaken policy refused with its file, line and column and a message that says what is
 * wrong; generated mutations of the example either read or refused with a place, never
 * anything else.
 */
class PolicyReaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theExamplePolicyIsTakenAsWrittenInJsonAndYaml() throws Exception {
        for (String[] f : new String[][] {{IssueExample.JSON, "policy.json"}, {IssueExample.YAML, "policy.yaml"}}) {
            PolicyRules p = PolicyReader.read(f[0], f[1]);
            assertEquals(List.of("no-moves", "confined", "ask-writes"), p.rules().stream().map(Rule::id).toList());
            assertEquals(List.of(PolicyAction.HIDE, PolicyAction.DENY, PolicyAction.ASK),
                    p.rules().stream().map(Rule::action).toList());
            assertEquals("only files under /srv/data", p.rules().get(1).reason());
            assertEquals(100L, p.budgets().getFirst().perSession());
            assertEquals(Pinning.DENY, p.pinning());
            assertEquals(Map.of("sampling/createMessage", PolicyAction.DENY), p.serverRequests());
            assertEquals(Duration.ofSeconds(60), p.askTimeout());
            assertTrue(p.asks());
        }
    }

    private static List<PolicyProblem> problems(String text, String file) {
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyReader.read(text, file));
        return e.problems();
    }

    private static PolicyProblem only(String text, String file) {
        List<PolicyProblem> p = problems(text, file);
        assertEquals(1, p.size(), p.toString());
        return p.getFirst();
    }

    /** Each line of a hostile policy and where its one problem is reported. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "unknown top key | {\"rules\": [], \"rulez\": []} | 1 | unknown key 'rulez' (did you mean 'rules'?)",
            "unknown rule key | {\"rules\": [\\n {\"id\": \"a\", \"tool\": [\"x\"], \"action\": \"deny\"}]} | 2 | unknown key 'tool' (did you mean 'tools'?)",
            "rule without action | {\"rules\": [\\n\\n {\"id\": \"a\", \"tools\": [\"x\"]}]} | 3 | the rule a has no action",
            "unknown action | {\"rules\": [{\"id\": \"a\",\\n \"action\": \"block\"}]} | 2 | the action of the rule a is allow, log, ask, deny or hide, not \"block\"",
            "bad glob | {\"rules\": [{\"id\": \"a\", \"tools\":\\n [\"read_[\"], \"action\": \"deny\"}]} | 2 | the glob 'read_[' has a [ that is never closed",
            "catastrophic regex | {\"rules\": [{\"id\": \"a\", \"arguments\": {\"/p\":\\n {\"regex\": \"(a+)+$\"}}, \"action\": \"deny\"}]} | 2 | the regex '(a+)+$' repeats a repetition",
            "back-reference | {\"rules\": [{\"id\": \"a\", \"arguments\": {\"/p\": {\"regex\": \"(a)\\\\1\"}}, \"action\": \"deny\"}]} | 1 | the regex '(a)\\1' has a back-reference",
            "no id | {\"rules\": [{\"action\": \"deny\"}]} | 1 | the rule has no id",
            "twin ids | {\"rules\": [{\"id\": \"a\", \"action\": \"log\"},\\n{\"id\": \"a\", \"action\": \"deny\"}]} | 2 | the id a is taken by another rule or budget (line 1)",
            "duplicate key | {\"rules\": [{\"id\": \"a\", \"action\": \"log\",\\n \"action\": \"allow\"}]} | 2 | has the key 'action' twice in one object (first on line 1)",
            "hide with arguments | {\"rules\": [{\"id\": \"a\", \"action\": \"hide\",\\n \"arguments\": {\"/p\": {\"present\": true}}}]} | 2 | the rule a hides tools from the listing",
            "bad pointer | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"arguments\": {\\n\"path\": {\"present\": true}}}]} | 2 | 'path' is not a JSON pointer",
            "relative directory | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"arguments\": {\"/p\": {\"outside\":\\n \"srv/data\"}}}]} | 2 | outside names directories by absolute paths",
            "min over max | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"arguments\": {\"/n\": {\"min\": 5,\\n \"max\": 1}}}]} | 2 | max 1 is below min 5",
            "present false and a test | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"arguments\": {\"/n\": {\"present\": false, \"glob\": \"x\"}}}]} | 1 | present: false says the value is not there",
            "unknown test | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"arguments\": {\"/n\": {\"matches\": \"x\"}}}]} | 1 | unknown key 'matches'",
            "unknown hint | {\"rules\": [{\"id\": \"a\", \"action\": \"ask\", \"annotations\": {\"readonlyHint\": false}}]} | 1 | unknown hint 'readonlyHint' (did you mean 'readOnlyHint'?)",
            "hint not a boolean | {\"rules\": [{\"id\": \"a\", \"action\": \"ask\", \"annotations\": {\"readOnlyHint\": \"no\"}}]} | 1 | readOnlyHint is true, false or absent",
            "tools not a list | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\", \"tools\": \"move_file\"}]} | 1 | tools is a list of tool names or globs",
            "budget without limit | {\"budgets\": [{\"id\": \"b\", \"action\": \"deny\"}]} | 1 | the budget b has no limit",
            "budget hides | {\"budgets\": [{\"id\": \"b\", \"per_session\": 1, \"action\": \"hide\"}]} | 1 | the action of the budget b is log, ask or deny",
            "negative limit | {\"budgets\": [{\"id\": \"b\", \"per_session\": -1, \"action\": \"deny\"}]} | 1 | per_session is a whole number",
            "unknown server request | {\"server_requests\": {\"sampling/createMesage\": \"deny\"}} | 1 | unknown request 'sampling/createMesage' (did you mean 'sampling/createMessage'?)",
            "server request asked | {\"server_requests\": {\"roots/list\": \"ask\"}} | 1 | roots/list is allow or deny",
            "bad pinning | {\"pinning\": \"strict\"} | 1 | pinning is off, log, deny or end",
            "bad timeout | {\"rules\": [{\"id\": \"a\", \"action\": \"ask\"}], \"ask_timeout\": 0} | 1 | ask_timeout is a number of seconds",
            "says nothing | {} | 1 | the policy says nothing",
            "not an object | [1, 2] | 1 | a policy is an object",
            "not json | {\"rules\": [,]} | 1 | not JSON that can be read",
            "trailing comma | {\"rules\": [{\"id\": \"a\", \"action\": \"deny\"},]} | 1 | not JSON that can be read",
            "comment | {\"rules\": [] // none\\n} | 1 | not JSON that can be read",
            "two values | {\"pinning\": \"log\"} {} | 1 | has more after the end"})
    void hostileJsonIsRefusedWithItsPlace(String name, String text, int line, String message) {
        PolicyProblem p = only(text.replace("\\n", "\n"), "hostile.json");
        assertEquals("hostile.json", p.source());
        assertEquals(line, p.line(), p.toString());
        assertTrue(p.column() > 0, p.toString());
        assertTrue(p.message().startsWith(message) || p.message().contains(message), p.toString());
        assertTrue(p.toString().startsWith("hostile.json:" + line + ":" + p.column() + ": "), p.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "anchor | rules:\\n  - &r {id: a, action: deny}\\n  - *r | 2 | has a YAML anchor (&r)",
            "alias | x: &a [1]\\nrules: *a | 1 | has a YAML anchor",
            "tag | pinning: !!str deny | 1 | has a YAML tag",
            "two documents | pinning: deny\\n---\\npinning: log | 3 | holds more than one YAML document",
            "duplicate key | pinning: deny\\npinning: log | 2 | has the key 'pinning' twice in one object (first on line 1)",
            "bad indentation | rules:\\n  - id: a\\n   action: deny | 3 | not YAML that can be read",
            "rule without action | rules:\\n  - id: a\\n    tools: [x] | 2 | the rule a has no action",
            "norway | rules:\\n  - id: a\\n    tools: [no]\\n    action: deny | 3 | a tool is named by a string, not false"})
    void hostileYamlIsRefusedWithItsPlace(String name, String text, int line, String message) {
        PolicyProblem p = problems(text.replace("\\n", "\n"), "hostile.yaml").getFirst();
        assertEquals(line, p.line(), p.toString());
        assertTrue(p.message().contains(message), p.toString());
    }

    @Test
    void everyProblemIsReportedInTheFilesOrder() {
        String text = "{\"rules\": [\n {\"id\": \"a\", \"tools\": [\"[\"]},\n {\"id\": \"b\", \"action\": \"nope\"}],\n"
                + " \"pinning\": 3}";
        List<PolicyProblem> p = problems(text, "many.json");
        assertEquals(List.of(2, 2, 3, 4), p.stream().map(PolicyProblem::line).toList(), p.toString());
    }

    @Test
    void aNestingBombAndAHugeFileAreRefused() {
        String deep = "{\"rules\": " + "[".repeat(200) + "]".repeat(200) + "}";
        assertTrue(only(deep, "deep.json").message().contains("deep") || only(deep, "deep.json").message()
                .contains("nesting"), only(deep, "deep.json").toString());
        String huge = "{\"description\": \"" + "x".repeat(PolicyText.MAX_CHARS) + "\"}";
        assertTrue(only(huge, "huge.json").message().contains("at most"));
        String bomb = "a: &a [\"x\",\"x\"]\nb: &b [*a,*a]\nc: &c [*b,*b]\nd: [*c,*c]\n";
        assertTrue(only(bomb, "bomb.yaml").message().contains("anchor"));
    }

    @Test
    void aPolicyBuiltInCodeNamesThePointerOfWhatIsWrong() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.putArray("rules").addObject().put("id", "a").put("action", "forbid");
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyReader.of(doc, "in code"));
        assertEquals("in code: at /rules/0/action: the action of the rule a is allow, log, ask, deny or hide, not"
                + " \"forbid\"", e.problems().getFirst().toString());
    }

    /**
     * Mutations of the example policy: a key renamed, a value replaced by one of another kind,
     * a member dropped. Each is read, or refused with problems that all have a line; nothing
     * else happens (no other exception, no problem without a place).
     */
    @Test
    void generatedMutationsAreReadOrRefusedWithAPlace() throws Exception {
        Random random = new Random(3);
        JsonNode[] replacements = {JsonNodeFactory.instance.textNode("*"), JsonNodeFactory.instance.numberNode(-1),
                JsonNodeFactory.instance.booleanNode(false), JsonNodeFactory.instance.nullNode(),
                JsonNodeFactory.instance.arrayNode(), JsonNodeFactory.instance.objectNode(),
                JsonNodeFactory.instance.textNode("(a*)*"), JsonNodeFactory.instance.textNode("[z-a]"),
                JsonNodeFactory.instance.textNode("relative/dir"), JsonNodeFactory.instance.textNode("hide")};
        int refused = 0;
        for (int i = 0; i < 1500; i++) {
            JsonNode doc = JSON.readTree(IssueExample.JSON);
            List<JsonNode> containers = new ArrayList<>();
            collect(doc, containers);
            JsonNode target = containers.get(random.nextInt(containers.size()));
            mutate(target, random, replacements);
            String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc);
            try {
                PolicyReader.read(text, "mutated.json");
            } catch (PolicyException e) {
                refused++;
                for (PolicyProblem p : e.problems()) {
                    assertTrue(p.line() > 0 && p.column() > 0, p + "\n" + text);
                }
            } catch (RuntimeException e) {
                fail("reading a mutated policy threw " + e + "\n" + text);
            }
        }
        assertTrue(refused > 500, "refused: " + refused);
    }

    private static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainerNode()) {
            out.add(n);
            n.forEach(c -> collect(c, out));
        }
    }

    private static void mutate(JsonNode target, Random r, JsonNode[] replacements) {
        if (target instanceof ObjectNode o && !o.isEmpty()) {
            List<String> keys = new ArrayList<>();
            o.fieldNames().forEachRemaining(keys::add);
            String key = keys.get(r.nextInt(keys.size()));
            switch (r.nextInt(3)) {
                case 0 -> o.set(key + (r.nextBoolean() ? "s" : "X"), o.remove(key));
                case 1 -> o.set(key, replacements[r.nextInt(replacements.length)]);
                default -> o.remove(key);
            }
        } else if (target instanceof ArrayNode a && !a.isEmpty()) {
            int i = r.nextInt(a.size());
            if (r.nextBoolean()) {
                a.set(i, replacements[r.nextInt(replacements.length)]);
            } else {
                a.remove(i);
            }
        }
    }
}
