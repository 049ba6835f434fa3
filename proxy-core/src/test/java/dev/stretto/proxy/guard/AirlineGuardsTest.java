package dev.stretto.proxy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each airline rule on sessions built for its case, judged against the policy's clock (2024-05-15 15:00). */
class AirlineGuardsTest {

    private static final String USER = "{\"membership\":\"%s\",\"payment_methods\":{\"credit_card_1\":{\"source\":"
            + "\"credit_card\"},\"gift_card_1\":{\"source\":\"gift_card\"}},\"user_id\":\"mia_1\"}";

    /** A reservation of mia_1, with the fields a case changes. */
    private static String reservation(String cabin, String insurance, String createdAt, String date) {
        return "{\"cabin\":\"" + cabin + "\",\"created_at\":\"" + createdAt + "\",\"flights\":[{\"date\":\"" + date
                + "\",\"destination\":\"LAX\",\"flight_number\":\"HAT170\",\"origin\":\"DFW\",\"price\":883}],"
                + "\"insurance\":\"" + insurance + "\",\"passengers\":[{\"first_name\":\"Mia\"},{\"first_name\":\"Raj\"}],"
                + "\"reservation_id\":\"4WQ150\",\"total_baggages\":2,\"user_id\":\"mia_1\"}";
    }

    private static final String OLD_ECONOMY = reservation("economy", "no", "2024-05-02T03:10:19", "2024-05-22");
    private static final String CANCEL = "cancel_reservation";
    private static final String CANCEL_ARGS = "{\"reservation_id\":\"4WQ150\"}";

    private static SessionSoFar session() {
        return new SessionSoFar(new AirlineGuards());
    }

    private static SessionSoFar withUserAnd(String membership, String reservation) {
        return session().ok("get_user_details", "{\"user_id\":\"mia_1\"}", String.format(USER, membership))
                .ok("get_reservation_details", CANCEL_ARGS, reservation);
    }

    private static void assertFail(String reason, Verdict v) {
        assertEquals(new Verdict.Fail(reason), v);
    }

    private static void assertUnknown(String reason, Verdict v) {
        assertEquals(new Verdict.Unknown(reason), v);
    }

    @Test
    void ownReservationWantsTheReservationsUserLookedUp() {
        assertEquals(Verdict.pass(), withUserAnd("regular", OLD_ECONOMY).verdict("airline.own_reservation", CANCEL, CANCEL_ARGS));
        SessionSoFar other = session().ok("get_user_details", "{\"user_id\":\"sam_2\"}", "{\"user_id\":\"sam_2\"}")
                .ok("get_reservation_details", CANCEL_ARGS, OLD_ECONOMY);
        assertFail("the reservation belongs to mia_1, not the user looked up",
                other.verdict("airline.own_reservation", CANCEL, CANCEL_ARGS));
        assertUnknown("the reservation was not looked up", session().verdict("airline.own_reservation", CANCEL, CANCEL_ARGS));
        assertUnknown("no user was looked up", session().ok("get_reservation_details", CANCEL_ARGS, OLD_ECONOMY)
                .verdict("airline.own_reservation", CANCEL, CANCEL_ARGS));
    }

    @Test
    void cancelAllowedWithin24HoursOrForBusinessOrInsuranceOrAnAirlineCancelledFlight() {
        assertEquals(Verdict.pass(), withUserAnd("regular", reservation("economy", "no", "2024-05-14T15:00:00", "2024-05-22"))
                .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertEquals(Verdict.pass(), withUserAnd("regular", reservation("business", "no", "2024-05-01T00:00:00", "2024-05-22"))
                .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertEquals(Verdict.pass(), withUserAnd("regular", reservation("economy", "yes", "2024-05-01T00:00:00", "2024-05-22"))
                .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertEquals(Verdict.pass(), withUserAnd("regular", OLD_ECONOMY)
                .ok("get_flight_status", "{\"flight_number\":\"HAT170\",\"date\":\"2024-05-22\"}", "cancelled")
                .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertFail("the reservation was booked more than 24 hours ago, is not in business class, has no travel insurance,"
                        + " and none of its flights is known to be cancelled",
                withUserAnd("regular", reservation("economy", "no", "2024-05-14T14:59:59", "2024-05-22"))
                        .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertFail("flight HAT170 on 2024-05-10 has already flown",
                withUserAnd("regular", reservation("business", "yes", "2024-05-14T16:00:00", "2024-05-10"))
                        .verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
        assertUnknown("the reservation was not looked up", session().verdict("airline.cancel_allowed", CANCEL, CANCEL_ARGS));
    }

    private static final String FLIGHTS = "update_reservation_flights";

    @Test
    void basicEconomyFlightsCannotChangeButTheirCabinCan() {
        SessionSoFar basic = withUserAnd("regular", reservation("basic_economy", "no", "2024-05-01T00:00:00", "2024-05-22"));
        String same = "{\"reservation_id\":\"4WQ150\",\"cabin\":\"economy\",\"flights\":[{\"flight_number\":\"HAT170\","
                + "\"date\":\"2024-05-22\"}],\"payment_id\":\"credit_card_1\"}";
        String other = same.replace("2024-05-22", "2024-05-23");
        assertEquals(Verdict.pass(), basic.verdict("airline.basic_economy_flights", FLIGHTS, same));
        assertFail("the flights of a basic economy reservation cannot be changed",
                basic.verdict("airline.basic_economy_flights", FLIGHTS, other));
        assertEquals(Verdict.pass(), withUserAnd("regular", OLD_ECONOMY).verdict("airline.basic_economy_flights", FLIGHTS, other));
        assertUnknown("the reservation was not looked up", session().verdict("airline.basic_economy_flights", FLIGHTS, other));
    }

    @Test
    void notFlownRefusesACabinChangeOnceAFlightFlew() {
        String toBusiness = "{\"reservation_id\":\"4WQ150\",\"cabin\":\"business\",\"flights\":[],\"payment_id\":\"credit_card_1\"}";
        assertEquals(Verdict.pass(), withUserAnd("regular", OLD_ECONOMY).verdict("airline.not_flown", FLIGHTS, toBusiness));
        assertFail("the cabin cannot change: flight HAT170 on 2024-05-01 has already flown",
                withUserAnd("regular", reservation("economy", "no", "2024-04-01T00:00:00", "2024-05-01"))
                        .verdict("airline.not_flown", FLIGHTS, toBusiness));
        assertUnknown("the reservation was not looked up", session().verdict("airline.not_flown", FLIGHTS, toBusiness));
    }

    @Test
    void keepBagsRefusesFewerBags() {
        String bags = "update_reservation_baggages";
        SessionSoFar s = withUserAnd("regular", OLD_ECONOMY);
        assertEquals(Verdict.pass(), s.verdict("airline.keep_bags", bags,
                "{\"reservation_id\":\"4WQ150\",\"total_baggages\":3,\"nonfree_baggages\":1,\"payment_id\":\"credit_card_1\"}"));
        assertFail("bags cannot be removed: the reservation has 2, the call asks for 1", s.verdict("airline.keep_bags", bags,
                "{\"reservation_id\":\"4WQ150\",\"total_baggages\":1,\"nonfree_baggages\":0,\"payment_id\":\"credit_card_1\"}"));
        assertUnknown("the reservation was not looked up", session().verdict("airline.keep_bags", bags,
                "{\"reservation_id\":\"4WQ150\",\"total_baggages\":1}"));
    }

    @Test
    void samePassengerCountRefusesAnotherNumberOfPassengers() {
        String pax = "update_reservation_passengers";
        SessionSoFar s = withUserAnd("regular", OLD_ECONOMY);
        assertEquals(Verdict.pass(), s.verdict("airline.same_passenger_count", pax,
                "{\"reservation_id\":\"4WQ150\",\"passengers\":[{},{}]}"));
        assertFail("the number of passengers cannot change: the reservation has 2, the call gives 3",
                s.verdict("airline.same_passenger_count", pax, "{\"reservation_id\":\"4WQ150\",\"passengers\":[{},{},{}]}"));
        assertUnknown("the reservation was not looked up",
                session().verdict("airline.same_passenger_count", pax, "{\"reservation_id\":\"4WQ150\",\"passengers\":[]}"));
    }

    @Test
    void bookingLimitsCountPassengersAndPaymentKindsFromTheArgumentsAlone() {
        String book = "book_reservation";
        assertEquals(Verdict.pass(), session().verdict("airline.booking_limits", book,
                "{\"passengers\":[{},{},{},{},{}],\"payment_methods\":[{\"payment_id\":\"certificate_1\"},"
                        + "{\"payment_id\":\"credit_card_1\"},{\"payment_id\":\"gift_card_1\"},{\"payment_id\":\"gift_card_2\"},"
                        + "{\"payment_id\":\"gift_card_3\"}]}"));
        assertFail("at most 5 passengers can be booked, not 6",
                session().verdict("airline.booking_limits", book, "{\"passengers\":[{},{},{},{},{},{}]}"));
        assertFail("at most one certificate can pay for a booking, not 2", session().verdict("airline.booking_limits", book,
                "{\"payment_methods\":[{\"payment_id\":\"certificate_1\"},{\"payment_id\":\"certificate_2\"}]}"));
        assertFail("at most one credit card can pay for a booking, not 2", session().verdict("airline.booking_limits", book,
                "{\"payment_methods\":[{\"payment_id\":\"credit_card_1\"},{\"payment_id\":\"credit_card_2\"}]}"));
        assertFail("at most three gift cards can pay for a booking, not 4", session().verdict("airline.booking_limits", book,
                "{\"payment_methods\":[{\"payment_id\":\"gift_card_1\"},{\"payment_id\":\"gift_card_2\"},"
                        + "{\"payment_id\":\"gift_card_3\"},{\"payment_id\":\"gift_card_4\"}]}"));
    }

    @Test
    void ownPaymentWantsMethodsOfAUserLookedUp() {
        String bags = "update_reservation_baggages";
        SessionSoFar s = withUserAnd("regular", OLD_ECONOMY);
        assertEquals(Verdict.pass(), s.verdict("airline.own_payment", bags, "{\"reservation_id\":\"4WQ150\",\"payment_id\":\"gift_card_1\"}"));
        assertFail("payment method certificate_9 is not the user's", s.verdict("airline.own_payment", "book_reservation",
                "{\"payment_methods\":[{\"payment_id\":\"credit_card_1\"},{\"payment_id\":\"certificate_9\"}]}"));
        assertUnknown("no user was looked up",
                session().verdict("airline.own_payment", bags, "{\"reservation_id\":\"4WQ150\",\"payment_id\":\"gift_card_1\"}"));
    }

    @Test
    void compensationOnlyForSilverOrGoldOrAnInsuredOrBusinessReservation() {
        String cert = "send_certificate";
        String args = "{\"user_id\":\"mia_1\",\"amount\":100}";
        assertEquals(Verdict.pass(), withUserAnd("silver", OLD_ECONOMY).verdict("airline.compensation", cert, args));
        assertEquals(Verdict.pass(), withUserAnd("regular", reservation("economy", "yes", "2024-05-01T00:00:00", "2024-05-22"))
                .verdict("airline.compensation", cert, args));
        assertFail("the user is a regular member with no insured or business reservation looked up",
                withUserAnd("regular", OLD_ECONOMY).verdict("airline.compensation", cert, args));
        assertUnknown("the user was not looked up", session().verdict("airline.compensation", cert, args));
    }

    @Test
    void confirmedIsOnlyLoggedAndNeedsTheConversation() {
        SessionSoFar s = withUserAnd("gold", reservation("business", "no", "2024-05-01T00:00:00", "2024-05-22"));
        Judgement j = s.judge(CANCEL, CANCEL_ARGS);
        assertEquals(new Verdict.Fail("the customer has not confirmed anything yet"),
                j.verdicts().getLast().verdict());
        assertEquals("airline.confirmed", j.verdicts().getLast().rule().id());
        assertEquals(false, j.refused());
        s.customer("ok, do it");
        assertEquals(Verdict.pass(), s.verdict("airline.confirmed", CANCEL, CANCEL_ARGS));
    }

    private static final String SAM = "{\"membership\":\"gold\",\"payment_methods\":{\"credit_card_2\":{\"source\":"
            + "\"credit_card\"}},\"user_id\":\"sam_2\"}";
    private static final String SAMS = OLD_ECONOMY.replace("4WQ150", "SAM222").replace("mia_1", "sam_2");

    /** mia_1 looked up with her reservation 4WQ150, then sam_2 with his SAM222. */
    private static SessionSoFar miaThenSam() {
        return withUserAnd("regular", OLD_ECONOMY)
                .ok("get_user_details", "{\"user_id\":\"sam_2\"}", SAM)
                .ok("get_reservation_details", "{\"reservation_id\":\"SAM222\"}", SAMS);
    }

    /** Each airline change touching another user's account, reservation or payment method, by the rule that refuses it. */
    @ParameterizedTest(name = "{0} refused by {2}")
    @CsvSource(delimiter = '|', value = {
        "book_reservation|{'user_id':'sam_2','origin':'DFW','destination':'LAX','flight_type':'one_way','cabin':'economy',"
                + "'flights':[{'flight_number':'HAT170','date':'2024-05-22'}],'passengers':[{'first_name':'Sam'}],"
                + "'payment_methods':[{'payment_id':'credit_card_1','amount':100}],'total_baggages':0,'nonfree_baggages':0,"
                + "'insurance':'no'}|airline.own_user|the call is for sam_2, not the user looked up",
        "book_reservation|{'user_id':'mia_1','origin':'DFW','destination':'LAX','flight_type':'one_way','cabin':'economy',"
                + "'flights':[{'flight_number':'HAT170','date':'2024-05-22'}],'passengers':[{'first_name':'Mia'}],"
                + "'payment_methods':[{'payment_id':'credit_card_2','amount':100}],'total_baggages':0,'nonfree_baggages':0,"
                + "'insurance':'no'}|airline.own_payment|payment method credit_card_2 is not the user's",
        "cancel_reservation|{'reservation_id':'SAM222'}|airline.own_reservation"
                + "|the reservation belongs to sam_2, not the user looked up",
        "update_reservation_baggages|{'reservation_id':'SAM222','total_baggages':3,'nonfree_baggages':1,'payment_id':"
                + "'credit_card_1'}|airline.own_reservation|the reservation belongs to sam_2, not the user looked up",
        "update_reservation_baggages|{'reservation_id':'4WQ150','total_baggages':3,'nonfree_baggages':1,'payment_id':"
                + "'credit_card_2'}|airline.own_payment|payment method credit_card_2 is not the user's",
        "update_reservation_flights|{'reservation_id':'SAM222','cabin':'economy','flights':[{'flight_number':'HAT170',"
                + "'date':'2024-05-22'}],'payment_id':'credit_card_1'}|airline.own_reservation"
                + "|the reservation belongs to sam_2, not the user looked up",
        "update_reservation_flights|{'reservation_id':'4WQ150','cabin':'economy','flights':[{'flight_number':'HAT170',"
                + "'date':'2024-05-22'}],'payment_id':'credit_card_2'}|airline.own_payment"
                + "|payment method credit_card_2 is not the user's",
        "update_reservation_passengers|{'reservation_id':'SAM222','passengers':[{'first_name':'Mia'},{'first_name':'Raj'}]}"
                + "|airline.own_reservation|the reservation belongs to sam_2, not the user looked up",
        "send_certificate|{'user_id':'sam_2','amount':100}|airline.own_user|the call is for sam_2, not the user looked up",
    })
    void everyChangeOnAnotherUsersThingsIsRefusedEvenWithThatUserLookedUpToo(String tool, String args, String rule,
                                                                            String reason) {
        String json = args.replace('\'', '"');
        Judgement j = miaThenSam().judge(tool, json);
        assertTrue(j.refused(), tool + " " + json + ": " + j.verdicts());
        assertFail(reason, miaThenSam().verdict(rule, tool, json));
        String own = json.replace("SAM222", "4WQ150").replace("sam_2", "mia_1").replace("credit_card_2", "credit_card_1");
        assertEquals(Verdict.pass(), miaThenSam().verdict(rule, tool, own), own);
    }

    @Test
    void everyChangeWantsAUserLookedUpFirst() {
        for (String tool : java.util.List.of("book_reservation", "cancel_reservation", "update_reservation_baggages",
                "update_reservation_flights", "update_reservation_passengers", "send_certificate")) {
            assertFail("no user has been looked up with get_user_details",
                    session().ok("get_reservation_details", CANCEL_ARGS, OLD_ECONOMY).verdict("airline.user_looked_up", tool,
                            CANCEL_ARGS));
            assertEquals(Verdict.pass(), withUserAnd("regular", OLD_ECONOMY).verdict("airline.user_looked_up", tool, CANCEL_ARGS));
        }
        assertTrue(session().ok("get_reservation_details", CANCEL_ARGS, OLD_ECONOMY).judge(CANCEL, CANCEL_ARGS).refused(),
                "a cancellation with nobody looked up is refused");
    }
}
