package dev.stretto.proxy.guard;

import static dev.stretto.proxy.guard.CallArgs.array;
import static dev.stretto.proxy.guard.CallArgs.field;
import static dev.stretto.proxy.guard.CallArgs.number;
import static dev.stretto.proxy.guard.CallArgs.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.ToolCall;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The guards of τ²-bench's airline domain. Times are judged against the policy's own clock,
 * {@link #NOW}, not the machine's. Every rule is enforced except {@code airline.confirmed},
 * whose word list is only logged.
 *
 * <p>One user per conversation: the user is the first one the session looked up with {@code
 * get_user_details} (the policy has the agent obtain the user id before any change), and every
 * write is checked for whose user, reservation and payment methods it touches; one of another
 * user's fails, even of a user looked up later.
 */
public final class AirlineGuards implements GuardDomain {

    /** The policy's "now": 2024-05-15 15:00 (EST), as τ²-bench's airline policy fixes it. */
    public static final LocalDateTime NOW = LocalDateTime.of(2024, 5, 15, 15, 0, 0);
    static final LocalDate TODAY = NOW.toLocalDate();

    static final String BOOK = "book_reservation";
    static final String CANCEL = "cancel_reservation";
    static final String BAGGAGES = "update_reservation_baggages";
    static final String FLIGHTS = "update_reservation_flights";
    static final String PASSENGERS = "update_reservation_passengers";
    static final String CERTIFICATE = "send_certificate";

    /** Every write of the domain. */
    static final Set<String> WRITES = Set.of(BOOK, CANCEL, BAGGAGES, FLIGHTS, PASSENGERS);
    /** The writes on an existing reservation. */
    static final Set<String> RESERVATION_WRITES = Set.of(CANCEL, BAGGAGES, FLIGHTS, PASSENGERS);
    /** Every call that changes something: the writes, and a certificate sent. */
    static final Set<String> CHANGES = Set.of(BOOK, CANCEL, BAGGAGES, FLIGHTS, PASSENGERS, CERTIFICATE);

    private static final List<Rule> RULES = List.of(
            Rule.enforced("airline.user_looked_up", CHANGES, AirlineGuards::userLookedUp),
            Rule.enforced("airline.own_reservation", RESERVATION_WRITES, AirlineGuards::ownReservation),
            Rule.enforced("airline.own_user", Set.of(BOOK, CERTIFICATE), AirlineGuards::ownUser),
            Rule.enforced("airline.cancel_allowed", Set.of(CANCEL), AirlineGuards::cancelAllowed),
            Rule.enforced("airline.basic_economy_flights", Set.of(FLIGHTS), AirlineGuards::basicEconomyFlights),
            Rule.enforced("airline.not_flown", Set.of(FLIGHTS), AirlineGuards::notFlown),
            Rule.enforced("airline.keep_bags", Set.of(BAGGAGES), AirlineGuards::keepBags),
            Rule.enforced("airline.same_passenger_count", Set.of(PASSENGERS), AirlineGuards::samePassengerCount),
            Rule.enforced("airline.booking_limits", Set.of(BOOK), AirlineGuards::bookingLimits),
            Rule.enforced("airline.own_payment", Set.of(BOOK, BAGGAGES, FLIGHTS), AirlineGuards::ownPayment),
            Rule.enforced("airline.compensation", Set.of(CERTIFICATE), AirlineGuards::compensation),
            Rule.loggedOnly("airline.confirmed", WRITES, Confirmation::check));

    private static final String NO_RESERVATION = "the call names no reservation";
    private static final String NOT_LOOKED_UP = "the reservation was not looked up";

    @Override
    public String name() {
        return "airline";
    }

    @Override
    public List<Rule> rules() {
        return RULES;
    }

    /** The looked-up reservation the call names, or null. */
    private static JsonNode reservation(ToolCall call, Facts facts) {
        String id = text(call, "reservation_id");
        return id == null ? null : facts.reservations().get(id);
    }

    private static Verdict reservationUnknown(ToolCall call) {
        return Verdict.unknown(text(call, "reservation_id") == null ? NO_RESERVATION : NOT_LOOKED_UP);
    }

    /** The user the conversation is about: the first one looked up, or null. */
    private static String theUser(Facts facts) {
        return facts.users().keySet().stream().findFirst().orElse(null);
    }

    static Verdict userLookedUp(ToolCall call, Facts facts) {
        return theUser(facts) == null ? Verdict.fail("no user has been looked up with get_user_details") : Verdict.pass();
    }

    static Verdict ownReservation(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        String user = field(r, "user_id");
        if (user == null) {
            return Verdict.unknown("the reservation's user is not known");
        }
        String me = theUser(facts);
        if (me == null) {
            return Verdict.unknown("no user was looked up");
        }
        return user.equals(me) ? Verdict.pass()
                : Verdict.fail("the reservation belongs to " + user + ", not the user looked up");
    }

    static Verdict ownUser(ToolCall call, Facts facts) {
        return CallArgs.forTheUser(call, theUser(facts), "no user was looked up", "the user looked up");
    }

    static Verdict cancelAllowed(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        JsonNode flights = r.get("flights");
        boolean anyCancelled = false;
        if (flights != null && flights.isArray()) {
            for (JsonNode f : flights) {
                LocalDate date = date(field(f, "date"));
                if (date != null && date.isBefore(TODAY)) {
                    return Verdict.fail("flight " + field(f, "flight_number") + " on " + date + " has already flown");
                }
                String number = field(f, "flight_number");
                String day = field(f, "date");
                if (number != null && day != null
                        && facts.flightStatus(number, day).filter("cancelled"::equals).isPresent()) {
                    anyCancelled = true;
                }
            }
        }
        LocalDateTime created = dateTime(field(r, "created_at"));
        if (created != null && !created.isBefore(NOW.minusHours(24))) {
            return Verdict.pass();
        }
        if ("business".equals(field(r, "cabin")) || "yes".equals(field(r, "insurance")) || anyCancelled) {
            return Verdict.pass();
        }
        if (created == null) {
            return Verdict.unknown("the reservation's booking time is not known");
        }
        return Verdict.fail("the reservation was booked more than 24 hours ago, is not in business class, has no"
                + " travel insurance, and none of its flights is known to be cancelled");
    }

    static Verdict basicEconomyFlights(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        if (!"basic_economy".equals(field(r, "cabin"))) {
            return Verdict.pass();
        }
        JsonNode wanted = array(call, "flights");
        if (wanted == null) {
            return Verdict.unknown("the call names no flights");
        }
        return legs(wanted).equals(legs(r.get("flights"))) ? Verdict.pass()
                : Verdict.fail("the flights of a basic economy reservation cannot be changed");
    }

    static Verdict notFlown(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        String cabin = text(call, "cabin");
        if (cabin == null || cabin.equals(field(r, "cabin"))) {
            return Verdict.pass();
        }
        JsonNode flights = r.get("flights");
        if (flights != null && flights.isArray()) {
            for (JsonNode f : flights) {
                LocalDate date = date(field(f, "date"));
                if (date != null && date.isBefore(TODAY)) {
                    return Verdict.fail("the cabin cannot change: flight " + field(f, "flight_number") + " on " + date
                            + " has already flown");
                }
            }
        }
        return Verdict.pass();
    }

    static Verdict keepBags(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        Long wanted = number(call, "total_baggages");
        JsonNode now = r.get("total_baggages");
        if (wanted == null || now == null || !now.isIntegralNumber()) {
            return Verdict.unknown("the number of bags is not known");
        }
        return wanted >= now.longValue() ? Verdict.pass()
                : Verdict.fail("bags cannot be removed: the reservation has " + now.longValue() + ", the call asks for "
                        + wanted);
    }

    static Verdict samePassengerCount(ToolCall call, Facts facts) {
        JsonNode r = reservation(call, facts);
        if (r == null) {
            return reservationUnknown(call);
        }
        JsonNode wanted = array(call, "passengers");
        JsonNode now = r.get("passengers");
        if (wanted == null || now == null || !now.isArray()) {
            return Verdict.unknown("the passengers are not known");
        }
        return wanted.size() == now.size() ? Verdict.pass()
                : Verdict.fail("the number of passengers cannot change: the reservation has " + now.size()
                        + ", the call gives " + wanted.size());
    }

    static Verdict bookingLimits(ToolCall call, Facts facts) {
        JsonNode passengers = array(call, "passengers");
        if (passengers != null && passengers.size() > 5) {
            return Verdict.fail("at most 5 passengers can be booked, not " + passengers.size());
        }
        int certificates = 0;
        int cards = 0;
        int giftCards = 0;
        for (String id : paymentIds(call)) {
            if (id.startsWith("certificate")) {
                certificates++;
            } else if (id.startsWith("credit_card")) {
                cards++;
            } else if (id.startsWith("gift_card")) {
                giftCards++;
            }
        }
        if (certificates > 1) {
            return Verdict.fail("at most one certificate can pay for a booking, not " + certificates);
        }
        if (cards > 1) {
            return Verdict.fail("at most one credit card can pay for a booking, not " + cards);
        }
        if (giftCards > 3) {
            return Verdict.fail("at most three gift cards can pay for a booking, not " + giftCards);
        }
        return Verdict.pass();
    }

    static Verdict ownPayment(ToolCall call, Facts facts) {
        List<String> ids = paymentIds(call);
        if (ids.isEmpty()) {
            return Verdict.unknown("the call names no payment method");
        }
        String me = theUser(facts);
        if (me == null) {
            return Verdict.unknown("no user was looked up");
        }
        JsonNode methods = facts.users().get(me).get("payment_methods");
        for (String id : ids) {
            if (methods == null || !methods.isObject() || !methods.has(id)) {
                return Verdict.fail("payment method " + id + " is not the user's");
            }
        }
        return Verdict.pass();
    }

    static Verdict compensation(ToolCall call, Facts facts) {
        String userId = text(call, "user_id");
        if (userId == null) {
            return Verdict.unknown("the call names no user");
        }
        JsonNode user = facts.users().get(userId);
        if (user == null) {
            return Verdict.unknown("the user was not looked up");
        }
        String membership = field(user, "membership");
        if ("silver".equals(membership) || "gold".equals(membership)) {
            return Verdict.pass();
        }
        for (JsonNode r : facts.reservations().values()) {
            if (userId.equals(field(r, "user_id"))
                    && ("yes".equals(field(r, "insurance")) || "business".equals(field(r, "cabin")))) {
                return Verdict.pass();
            }
        }
        return Verdict.fail("the user is a " + (membership == null ? "regular" : membership)
                + " member with no insured or business reservation looked up");
    }

    /** {@code payment_methods[].payment_id} of a booking, or the {@code payment_id} of an update. */
    private static List<String> paymentIds(ToolCall call) {
        JsonNode methods = array(call, "payment_methods");
        if (methods != null) {
            return methods.valueStream().map(m -> field(m, "payment_id")).filter(id -> id != null).toList();
        }
        String one = text(call, "payment_id");
        return one == null ? List.of() : List.of(one);
    }

    /** The set of (flight number, date) of a list of flights. */
    private static Set<String> legs(JsonNode flights) {
        Set<String> out = new HashSet<>();
        if (flights != null && flights.isArray()) {
            for (JsonNode f : flights) {
                out.add(field(f, "flight_number") + " " + field(f, "date"));
            }
        }
        return out;
    }

    private static LocalDate date(String s) {
        try {
            return s == null ? null : LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static LocalDateTime dateTime(String s) {
        try {
            return s == null ? null : LocalDateTime.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
