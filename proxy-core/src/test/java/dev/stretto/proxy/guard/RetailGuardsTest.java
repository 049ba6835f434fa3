package dev.stretto.proxy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each retail rule on sessions built for its case: pass, the exact failure, and unknown. */
class RetailGuardsTest {

    private static final String ORDER_1A = "{\"items\":[{\"item_id\":\"1\",\"name\":\"Desk lamp\",\"product_id\":\"p1\"},"
            + "{\"item_id\":\"1\",\"name\":\"Desk lamp\",\"product_id\":\"p1\"},{\"item_id\":\"2\",\"product_id\":\"p2\"}],"
            + "\"order_id\":\"#W1a\",\"payment_history\":[{\"payment_method_id\":\"credit_card_1\"}],"
            + "\"status\":\"%s\",\"user_id\":\"user_1\"}";
    private static final String USER_1 = "{\"email\":\"c1@example.com\",\"orders\":[\"#W1a\",\"#W1b\"],"
            + "\"payment_methods\":{\"credit_card_1\":{\"source\":\"credit_card\"},\"gift_card_1\":{\"source\":\"gift_card\"}},"
            + "\"user_id\":\"user_1\"}";
    private static final String PRODUCT_P1 = "{\"name\":\"Desk lamp\",\"product_id\":\"p1\",\"variants\":{"
            + "\"1\":{\"available\":true},\"3\":{\"available\":true},\"4\":{\"available\":false}}}";

    private static final String CANCEL = "cancel_pending_order";
    private static final String CANCEL_OK = "{\"order_id\":\"#W1a\",\"reason\":\"ordered by mistake\"}";

    private static SessionSoFar session() {
        return new SessionSoFar(new RetailGuards());
    }

    /** Authenticated as user_1, whose order #W1a has {@code status}. */
    private static SessionSoFar authenticatedWithOrder(String status) {
        return session()
                .ok("find_user_id_by_email", "{\"email\":\"c1@example.com\"}", "user_1")
                .ok("get_user_details", "{\"user_id\":\"user_1\"}", USER_1)
                .ok("get_order_details", "{\"order_id\":\"#W1a\"}", String.format(ORDER_1A, status));
    }

    private static void assertFail(String reason, Verdict v) {
        assertEquals(new Verdict.Fail(reason), v);
    }

    private static void assertUnknown(String reason, Verdict v) {
        assertEquals(new Verdict.Unknown(reason), v);
    }

    @Test
    void authenticatedPassesAfterALookupByEmailOrNameAndZipAndFailsOtherwise() {
        assertEquals(Verdict.pass(), authenticatedWithOrder("pending").verdict("retail.authenticated", CANCEL, CANCEL_OK));
        assertEquals(Verdict.pass(), session().ok("find_user_id_by_name_zip",
                "{\"first_name\":\"A\",\"last_name\":\"B\",\"zip\":\"1\"}", "\"user_9\"")
                .verdict("retail.authenticated", "modify_user_address", "{}"));
        assertFail("the user has not been authenticated by email or by name and zip code",
                session().failed("find_user_id_by_email", "{\"email\":\"x@example.com\"}", "Error: User not found")
                        .verdict("retail.authenticated", CANCEL, CANCEL_OK));
    }

    @Test
    void ownOrderPassesForTheAuthenticatedUsersOrderFailsForAnotherAndIsUnknownWithoutTheFacts() {
        assertEquals(Verdict.pass(), authenticatedWithOrder("pending").verdict("retail.own_order", CANCEL, CANCEL_OK));
        SessionSoFar other = session().ok("find_user_id_by_email", "{\"email\":\"c2@example.com\"}", "user_2")
                .ok("get_order_details", "{\"order_id\":\"#W1a\"}", String.format(ORDER_1A, "pending"));
        assertFail("the order belongs to user_1, not the authenticated user", other.verdict("retail.own_order", CANCEL, CANCEL_OK));
        assertUnknown("the order was not looked up",
                session().ok("find_user_id_by_email", "{}", "user_1").verdict("retail.own_order", CANCEL, CANCEL_OK));
        assertUnknown("nobody has been authenticated", session().ok("get_order_details", "{\"order_id\":\"#W1a\"}",
                String.format(ORDER_1A, "pending")).verdict("retail.own_order", CANCEL, CANCEL_OK));
        assertUnknown("the call names no order", session().verdict("retail.own_order", CANCEL, "{}"));
    }

    @Test
    void statusCheckedNeedsTheOrderLookedUpBefore() {
        assertEquals(Verdict.pass(), authenticatedWithOrder("pending").verdict("retail.status_checked", CANCEL, CANCEL_OK));
        assertFail("the order's status was not checked first", session()
                .ok("find_user_id_by_email", "{}", "user_1").ok("get_user_details", "{}", USER_1)
                .verdict("retail.status_checked", CANCEL, CANCEL_OK));
        assertUnknown("the call names no order", session().verdict("retail.status_checked", CANCEL, "{\"reason\":\"x\"}"));
    }

    @Test
    void pendingWantsExactlyPendingForCancelButAcceptsItemModifiedForAddressAndPayment() {
        assertEquals(Verdict.pass(), authenticatedWithOrder("pending").verdict("retail.pending", CANCEL, CANCEL_OK));
        assertFail("the order is delivered, not pending",
                authenticatedWithOrder("delivered").verdict("retail.pending", CANCEL, CANCEL_OK));
        SessionSoFar modified = authenticatedWithOrder("pending (item modified)");
        assertFail("the order is pending (item modified), not pending", modified.verdict("retail.pending", CANCEL, CANCEL_OK));
        assertEquals(Verdict.pass(), modified.verdict("retail.pending", "modify_pending_order_address", "{\"order_id\":\"#W1a\"}"));
        assertEquals(Verdict.pass(), modified.verdict("retail.pending", "modify_pending_order_payment", "{\"order_id\":\"#W1a\"}"));
        assertUnknown("the order was not looked up", session().verdict("retail.pending", CANCEL, CANCEL_OK));
    }

    @Test
    void aCancellationResultIsTheOrderAsLastSeen() {
        SessionSoFar s = authenticatedWithOrder("pending")
                .ok(CANCEL, CANCEL_OK, "{\"order_id\":\"#W1a\",\"status\":\"cancelled\"}");
        assertFail("the order is cancelled, not pending", s.verdict("retail.pending", CANCEL, CANCEL_OK));
    }

    @Test
    void deliveredWantsADeliveredOrder() {
        String ret = "return_delivered_order_items";
        String args = "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"payment_method_id\":\"credit_card_1\"}";
        assertEquals(Verdict.pass(), authenticatedWithOrder("delivered").verdict("retail.delivered", ret, args));
        assertFail("the order is pending, not delivered", authenticatedWithOrder("pending").verdict("retail.delivered", ret, args));
        assertUnknown("the order was not looked up", session().verdict("retail.delivered", ret, args));
    }

    @Test
    void cancelReasonAcceptsOnlyThePolicysTwoReasons() {
        assertEquals(Verdict.pass(), session().verdict("retail.cancel_reason", CANCEL, CANCEL_OK));
        assertEquals(Verdict.pass(), session().verdict("retail.cancel_reason", CANCEL, "{\"reason\":\"no longer needed\"}"));
        assertFail("'found it cheaper' is not an accepted reason",
                session().verdict("retail.cancel_reason", CANCEL, "{\"order_id\":\"#W1a\",\"reason\":\"found it cheaper\"}"));
        assertFail("'Ordered by mistake' is not an accepted reason",
                session().verdict("retail.cancel_reason", CANCEL, "{\"reason\":\"Ordered by mistake\"}"));
        assertFail("no reason given", session().verdict("retail.cancel_reason", CANCEL, "{\"order_id\":\"#W1a\"}"));
        assertFail("no reason given", session().verdict("retail.cancel_reason", CANCEL, "{\"reason\":\" \"}"));
    }

    @Test
    void itemsInOrderCountsEachItemAsOftenAsTheOrderHoldsIt() {
        String ex = "exchange_delivered_order_items";
        SessionSoFar s = authenticatedWithOrder("delivered");
        assertEquals(Verdict.pass(), s.verdict("retail.items_in_order", ex, "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\",\"1\",\"2\"]}"));
        assertFail("item 1 is not in the order",
                s.verdict("retail.items_in_order", ex, "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\",\"1\",\"1\"]}"));
        assertFail("item 9 is not in the order", s.verdict("retail.items_in_order", ex, "{\"order_id\":\"#W1a\",\"item_ids\":[\"9\"]}"));
        assertUnknown("the order was not looked up",
                session().verdict("retail.items_in_order", ex, "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"]}"));
        assertUnknown("the call names no items", s.verdict("retail.items_in_order", ex, "{\"order_id\":\"#W1a\"}"));
    }

    @Test
    void sameProductWantsAnAvailableOtherVariantOfTheSameProduct() {
        String mod = "modify_pending_order_items";
        SessionSoFar s = authenticatedWithOrder("pending").ok("get_product_details", "{\"product_id\":\"p1\"}", PRODUCT_P1);
        assertEquals(Verdict.pass(), s.verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"3\"]}"));
        assertFail("item 9 is not a variant of the same product", s.verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"9\"]}"));
        assertFail("item 4 is not available", s.verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"4\"]}"));
        assertFail("item 1 is the item it replaces", s.verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"1\"]}"));
        assertFail("the call replaces 2 items with 1", s.verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\",\"1\"],\"new_item_ids\":[\"3\"]}"));
        assertUnknown("product p1 was not looked up", authenticatedWithOrder("pending").verdict("retail.same_product", mod,
                "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"3\"]}"));
    }

    @Test
    void onceRefusesASecondItemChangeOnTheSameOrderButNotAfterAFailedOne() {
        String mod = "modify_pending_order_items";
        String args = "{\"order_id\":\"#W1a\",\"item_ids\":[\"1\"],\"new_item_ids\":[\"3\"],\"payment_method_id\":\"credit_card_1\"}";
        SessionSoFar s = authenticatedWithOrder("pending");
        assertEquals(Verdict.pass(), s.verdict("retail.once", mod, args));
        s.failed(mod, args, "Error: not available");
        assertEquals(Verdict.pass(), s.verdict("retail.once", mod, args));
        s.ok(mod, args, "{\"order_id\":\"#W1a\",\"status\":\"pending (item modified)\"}");
        assertFail("the order's items were already changed once", s.verdict("retail.once", "exchange_delivered_order_items", args));
        assertUnknown("the call names no order", session().verdict("retail.once", mod, "{}"));
    }

    @Test
    void ownPaymentWantsAMethodOfTheAuthenticatedUser() {
        String pay = "modify_pending_order_payment";
        SessionSoFar s = authenticatedWithOrder("pending");
        assertEquals(Verdict.pass(), s.verdict("retail.own_payment", pay, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"gift_card_1\"}"));
        assertFail("payment method paypal_7 is not the user's",
                s.verdict("retail.own_payment", pay, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"paypal_7\"}"));
        assertUnknown("the user's details were not looked up", session().ok("find_user_id_by_email", "{}", "user_1")
                .verdict("retail.own_payment", pay, "{\"payment_method_id\":\"credit_card_1\"}"));
    }

    @Test
    void refundMethodWantsTheOriginalMethodOrAGiftCard() {
        String ret = "return_delivered_order_items";
        SessionSoFar s = authenticatedWithOrder("delivered");
        assertEquals(Verdict.pass(), s.verdict("retail.refund_method", ret, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_1\"}"));
        assertEquals(Verdict.pass(), session().verdict("retail.refund_method", ret, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"gift_card_5\"}"));
        assertFail("refunds go to the original payment method credit_card_1 or a gift card, not paypal_1",
                s.verdict("retail.refund_method", ret, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"paypal_1\"}"));
        assertUnknown("the order was not looked up",
                session().verdict("retail.refund_method", ret, "{\"order_id\":\"#W1a\",\"payment_method_id\":\"paypal_1\"}"));
    }

    @Test
    void confirmedReadsTheCustomersLastMessageForAConfirmingWordOrPhrase() {
        SessionSoFar s = authenticatedWithOrder("pending").agent("Shall I cancel #W1a?");
        assertFail("the customer has not confirmed anything yet", s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
        s.customer("Can you check the other order first?");
        assertFail("the customer's last message is not an explicit confirmation", s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
        s.customer("Yesterday I said so.");
        assertFail("the customer's last message is not an explicit confirmation", s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
        s.customer("Yes, cancel it.");
        assertEquals(Verdict.pass(), s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
        s.customer("Please go ahead with that");
        assertEquals(Verdict.pass(), s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
        s.customer("That\u2019s right.");
        assertEquals(Verdict.pass(), s.verdict("retail.confirmed", CANCEL, CANCEL_OK));
    }

    @Test
    void aRefusalJoinsEveryEnforcedFailureInRuleOrderAndIgnoresTheLoggedOnlyRule() {
        Judgement j = session().ok("find_user_id_by_email", "{}", "user_1")
                .judge(CANCEL, "{\"order_id\":\"#W1a\",\"reason\":\"found it cheaper\"}");
        assertTrue(j.refused());
        assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed: the order's"
                + " status was not checked first (policy check retail.status_checked); 'found it cheaper' is not an"
                + " accepted reason (policy check retail.cancel_reason).", j.message());
        assertEquals(List.of("retail.authenticated", "retail.own_order", "retail.status_checked", "retail.pending",
                "retail.cancel_reason", "retail.confirmed"),
                j.verdicts().stream().map(c -> c.rule().id()).toList());
        Judgement onlyUnconfirmed = authenticatedWithOrder("pending").judge(CANCEL, CANCEL_OK);
        assertFalse(onlyUnconfirmed.refused(), "retail.confirmed fails here but is only logged");
        assertEquals("", onlyUnconfirmed.reason());
    }

    @Test
    void readsAreNotChecked() {
        Guards g = Guards.forDomain("retail").orElseThrow();
        assertFalse(g.checks("get_order_details"));
        assertTrue(g.checks(CANCEL));
        assertTrue(g.check(SessionSoFar.call("get_order_details", "{}"), new Facts()).verdicts().isEmpty());
    }

    private static final String USER_2 = "{\"email\":\"c2@example.com\",\"orders\":[\"#W2a\"],"
            + "\"payment_methods\":{\"credit_card_2\":{\"source\":\"credit_card\"},\"gift_card_2\":{\"source\":"
            + "\"gift_card\"}},\"user_id\":\"user_2\"}";
    private static final String ORDER_2A = "{\"items\":[{\"item_id\":\"1\",\"product_id\":\"p1\"}],\"order_id\":\"#W2a\","
            + "\"payment_history\":[{\"payment_method_id\":\"credit_card_2\"}],\"status\":\"%s\",\"user_id\":\"user_2\"}";

    /**
     * Authenticated as user_1 with order #W1a looked up, then user_2 authenticated too (the
     * customer gave another's email), with user_2's details and order #W2a looked up.
     */
    private static SessionSoFar user1ThenUser2(String status) {
        return authenticatedWithOrder(status)
                .ok("find_user_id_by_email", "{\"email\":\"c2@example.com\"}", "user_2")
                .ok("get_user_details", "{\"user_id\":\"user_2\"}", USER_2)
                .ok("get_order_details", "{\"order_id\":\"#W2a\"}", String.format(ORDER_2A, status))
                .ok("get_product_details", "{\"product_id\":\"p1\"}", PRODUCT_P1);
    }

    /** Each retail write touching another user's order, account or payment method, by the rule that refuses it. */
    @ParameterizedTest(name = "{0} refused by {2}")
    @CsvSource(delimiter = '|', value = {
        "cancel_pending_order|{'order_id':'#W2a','reason':'ordered by mistake'}|retail.own_order|pending"
                + "|the order belongs to user_2, not the authenticated user",
        "modify_pending_order_address|{'order_id':'#W2a','address1':'1 Main St','address2':'','city':'X','state':'Y',"
                + "'country':'USA','zip':'1'}|retail.own_order|pending|the order belongs to user_2, not the authenticated user",
        "modify_pending_order_items|{'order_id':'#W2a','item_ids':['1'],'new_item_ids':['3'],'payment_method_id':"
                + "'credit_card_1'}|retail.own_order|pending|the order belongs to user_2, not the authenticated user",
        "modify_pending_order_items|{'order_id':'#W1a','item_ids':['1'],'new_item_ids':['3'],'payment_method_id':"
                + "'credit_card_2'}|retail.own_payment|pending|payment method credit_card_2 is not the user's",
        "modify_pending_order_payment|{'order_id':'#W2a','payment_method_id':'credit_card_1'}|retail.own_order|pending"
                + "|the order belongs to user_2, not the authenticated user",
        "modify_pending_order_payment|{'order_id':'#W1a','payment_method_id':'gift_card_2'}|retail.own_payment|pending"
                + "|payment method gift_card_2 is not the user's",
        "modify_user_address|{'user_id':'user_2','address1':'1 Main St','address2':'','city':'X','state':'Y',"
                + "'country':'USA','zip':'1'}|retail.own_user|pending|the call is for user_2, not the authenticated user",
        "return_delivered_order_items|{'order_id':'#W2a','item_ids':['1'],'payment_method_id':'gift_card_1'}"
                + "|retail.own_order|delivered|the order belongs to user_2, not the authenticated user",
        "return_delivered_order_items|{'order_id':'#W1a','item_ids':['1'],'payment_method_id':'gift_card_2'}"
                + "|retail.own_payment|delivered|payment method gift_card_2 is not the user's",
        "exchange_delivered_order_items|{'order_id':'#W2a','item_ids':['1'],'new_item_ids':['3'],'payment_method_id':"
                + "'credit_card_1'}|retail.own_order|delivered|the order belongs to user_2, not the authenticated user",
        "exchange_delivered_order_items|{'order_id':'#W1a','item_ids':['1'],'new_item_ids':['3'],'payment_method_id':"
                + "'gift_card_2'}|retail.own_payment|delivered|payment method gift_card_2 is not the user's",
    })
    void everyWriteOnAnotherUsersThingsIsRefusedEvenWithThatUserAuthenticatedToo(String tool, String args, String rule,
                                                                                 String status, String reason) {
        String json = args.replace('\'', '"');
        Judgement j = user1ThenUser2(status).judge(tool, json);
        assertTrue(j.refused(), tool + " " + json + ": " + j.verdicts());
        assertFail(reason, user1ThenUser2(status).verdict(rule, tool, json));
        // The same write on user_1's own things is not refused by that rule.
        String own = json.replace("#W2a", "#W1a").replace("user_2", "user_1").replace("credit_card_2", "credit_card_1")
                .replace("gift_card_2", "gift_card_1");
        assertEquals(Verdict.pass(), user1ThenUser2(status).verdict(rule, tool, own), own);
    }

    @Test
    void ownUserWantsTheAuthenticatedUsersAccount() {
        String address = "modify_user_address";
        SessionSoFar byNameAndZip = session().ok("find_user_id_by_name_zip",
                "{\"first_name\":\"A\",\"last_name\":\"B\",\"zip\":\"1\"}", "user_1");
        assertEquals(Verdict.pass(), byNameAndZip.verdict("retail.own_user", address, "{\"user_id\":\"user_1\"}"));
        assertFail("the call is for user_9, not the authenticated user",
                byNameAndZip.verdict("retail.own_user", address, "{\"user_id\":\"user_9\"}"));
        assertTrue(byNameAndZip.judge(address, "{\"user_id\":\"user_9\"}").refused());
        assertUnknown("nobody has been authenticated", session().verdict("retail.own_user", address, "{\"user_id\":\"user_9\"}"));
        assertUnknown("the call names no user", byNameAndZip.verdict("retail.own_user", address, "{}"));
    }

    @Test
    void ownPaymentFailsForAnotherUsersMethodEvenWithoutTheUsersOwnDetails() {
        SessionSoFar s = session().ok("find_user_id_by_email", "{}", "user_1")
                .ok("get_user_details", "{\"user_id\":\"user_2\"}", USER_2);
        assertFail("payment method credit_card_2 is user_2's, not the user's", s.verdict("retail.own_payment",
                "modify_pending_order_payment", "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_2\"}"));
        assertUnknown("the user's details were not looked up", s.verdict("retail.own_payment",
                "modify_pending_order_payment", "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_1\"}"));
    }
}
