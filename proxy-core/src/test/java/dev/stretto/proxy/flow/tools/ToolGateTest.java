package dev.stretto.proxy.flow.tools;

import static dev.stretto.proxy.flow.FlowTesting.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which tools the proxy may call (formats 3.5) and input contracts (2.10). */
class ToolGateTest {

    private static final Flow SHOP = flow("home/shop.flow.json");

    private static LiveTools listing(String tools) {
        return LiveTools.NONE.with(CanonicalJson.parse("{\"tools\":" + tools + "}"));
    }

    @Test
    void aContractIsEachPropertyWithItsTypeAndRequiredMarkSortedAndJoined() {
        assertEquals("order_id:string!, reason:string!", Contract.of(CanonicalJson.parse(
                "{\"type\":\"object\",\"properties\":{\"reason\":{\"type\":\"string\"},\"order_id\":{\"type\":\"string\"}},"
                        + "\"required\":[\"order_id\",\"reason\"]}")));
        assertEquals("a:any, b:string|null!, c:any", Contract.of(CanonicalJson.parse(
                "{\"properties\":{\"c\":{\"type\":[\"x\",1]},\"b\":{\"type\":[\"string\",\"null\"]},\"a\":{}},"
                        + "\"required\":[\"b\"]}")));
        assertEquals("", Contract.of(CanonicalJson.parse("{\"type\":\"object\"}")));
        assertNull(Contract.of(null));
        assertEquals(List.of("order_id", "reason"), Contract.required("order_id:string!, reason:string!, note:string"));
    }

    @Test
    void beforeAnyListingEveryReadToolOfTheManifestPasses() {
        ToolGate gate = new ToolGate(SHOP, null);
        assertInstanceOf(ToolGate.Allowed.class, gate.check("get_user_details", LiveTools.NONE));
        assertEquals("cancel_pending_order is not a read tool in the flow's manifest",
                ((ToolGate.Refused) gate.check("cancel_pending_order", LiveTools.NONE)).why());
        assertEquals("get_weather is not a read tool in the flow's manifest",
                ((ToolGate.Refused) gate.check("get_weather", LiveTools.NONE)).why());
    }

    @Test
    void aListedToolMustNotBeMarkedWritingAndMustKeepItsContract() {
        ToolGate gate = new ToolGate(SHOP, null);
        LiveTools live = listing("[{\"name\":\"get_user_details\",\"inputSchema\":{\"properties\":"
                + "{\"user_id\":{\"type\":\"string\"}},\"required\":[\"user_id\"]}},"
                + "{\"name\":\"get_order_details\",\"annotations\":{\"readOnlyHint\":false}},"
                + "{\"name\":\"find_user_id_by_email\",\"inputSchema\":{\"properties\":{\"mail\":{\"type\":\"string\"}}}}]");
        assertInstanceOf(ToolGate.Allowed.class, gate.check("get_user_details", live));
        assertEquals("the server marks get_order_details readOnlyHint: false",
                ((ToolGate.Refused) gate.check("get_order_details", live)).why());
        ToolGate.Refused changed = (ToolGate.Refused) gate.check("find_user_id_by_email", live);
        assertEquals(new ToolGate.ContractChange("find_user_id_by_email", "email:string!", "mail:string"), changed.change());
        assertEquals("find_user_id_by_email's input changed since the flow was learned (email:string! \u2192 mail:string);"
                + " the flow no longer looks it up", changed.change().message());
        LiveTools later = live.with(CanonicalJson.parse("{\"tools\":[{\"name\":\"get_order_details\"}]}"));
        assertInstanceOf(ToolGate.Allowed.class, gate.check("get_order_details", later), "a later listing replaces");
        assertEquals("the server does not list get_user_details",
                ((ToolGate.Refused) gate.check("get_user_details", listing("[]"))).why());
    }

    @Test
    void flowToolsLimitsTheLookups() {
        ToolGate gate = new ToolGate(SHOP, Set.of("get_order_details"));
        assertInstanceOf(ToolGate.Allowed.class, gate.check("get_order_details", LiveTools.NONE));
        assertEquals("get_user_details is not among --flow-tools",
                ((ToolGate.Refused) gate.check("get_user_details", LiveTools.NONE)).why());
    }

    @Test
    void requiredArgumentsComeFromTheListingElseThePinnedContract() {
        ToolGate gate = new ToolGate(SHOP, null);
        assertEquals(List.of("user_id"), gate.requiredArguments("get_user_details", LiveTools.NONE));
        assertEquals(List.of("uid"), gate.requiredArguments("get_user_details", listing(
                "[{\"name\":\"get_user_details\",\"inputSchema\":{\"properties\":{\"uid\":{}},\"required\":[\"uid\"]}}]")));
        assertNull(gate.requiredArguments("get_weather", LiveTools.NONE));
    }
}
