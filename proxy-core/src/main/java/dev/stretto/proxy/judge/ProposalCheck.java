package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The judge's model-free check (logged, never a reason to refuse): does the call pass a value
 * from a record the customer did not choose? Say the agent listed two cards, the customer
 * chose the one ending 7447, and the call pays with the other.
 *
 * <p>For each argument value with a digit (a scalar argument, or a scalar in an array
 * argument): find the latest earlier successful result, read as JSON, holding a list of
 * records (an array with two or more objects, or an object with two or more objects among its
 * values, at any depth) in which some record has the value among its own string and number
 * fields; the first such list in the result is the one checked. The customer's last message
 * chooses the records of that list it names: a record is named when the message states a
 * value of 4 or more characters that no other record of the list has (case aside; a number
 * not inside a longer number; an id like {@code credit_card_4196779} also by its digits, an
 * order id with or without its {@code #}). When it names none, the agent's proposal chooses,
 * if it names exactly one. The value is flagged when some record was chosen, no record
 * holding the value is among them, and the call passes none of the chosen records' field
 * values.
 */
public final class ProposalCheck {

    private static final int MIN_NAMING_CHARS = 4;

    private ProposalCheck() {
    }

    /**
     * The flagged values of a call, arguments in key order.
     *
     * @param episode   the session so far (the call not yet in it, or in it without a result)
     * @param arguments the call's arguments
     * @param exchange  the customer's last message and the agent's proposal before it
     */
    public static List<ConfirmLog.Flag> of(Episode episode, JsonNode arguments, Exchange exchange) {
        List<JsonNode> results = successfulResultsLatestFirst(episode);
        Set<String> passed = Set.copyOf(Scalars.argumentTexts(arguments));
        List<String> names = new ArrayList<>();
        arguments.fieldNames().forEachRemaining(names::add);
        names.sort(CanonicalJson::compareCodePoints);
        List<ConfirmLog.Flag> flags = new ArrayList<>();
        for (String name : names) {
            JsonNode argument = arguments.get(name);
            for (JsonNode value : argument.isArray() ? argument : List.of(argument)) {
                String text = Scalars.text(value);
                if (text != null && Scalars.hasDigit(text) && flagged(text, results, passed, exchange)) {
                    flags.add(new ConfirmLog.Flag(name, value));
                }
            }
        }
        return flags;
    }

    private static boolean flagged(String value, List<JsonNode> results, Set<String> passed, Exchange exchange) {
        Optional<List<JsonNode>> list = listHolding(results, value);
        if (list.isEmpty()) {
            return false;
        }
        List<JsonNode> chosen = chosen(list.get(), exchange);
        if (chosen.isEmpty()) {
            return false;
        }
        List<JsonNode> holders = RecordLists.holding(list.get(), value);
        boolean holderChosen = holders.stream().anyMatch(h -> chosen.stream().anyMatch(c -> c == h));
        boolean passesAChosenField = chosen.stream().flatMap(c -> Scalars.fieldsOf(c).stream()).anyMatch(passed::contains);
        return !holderChosen && !passesAChosenField;
    }

    private static Optional<List<JsonNode>> listHolding(List<JsonNode> results, String value) {
        for (JsonNode result : results) {
            for (List<JsonNode> list : RecordLists.in(result)) {
                if (!RecordLists.holding(list, value).isEmpty()) {
                    return Optional.of(list);
                }
            }
        }
        return Optional.empty();
    }

    /** The customer's choice among {@code list}, else the proposal's if it names exactly one record. */
    private static List<JsonNode> chosen(List<JsonNode> list, Exchange exchange) {
        List<JsonNode> byCustomer = chosenBy(exchange.customer(), list);
        if (!byCustomer.isEmpty()) {
            return byCustomer;
        }
        List<JsonNode> byProposal = chosenBy(exchange.proposal(), list);
        return byProposal.size() == 1 ? byProposal : List.of();
    }

    /** The records of {@code list} that {@code message} names by a value no other record has. */
    private static List<JsonNode> chosenBy(String message, List<JsonNode> list) {
        if (message.isBlank()) {
            return List.of();
        }
        List<JsonNode> chosen = new ArrayList<>();
        for (JsonNode record : list) {
            for (String field : Scalars.fieldsOf(record)) {
                if (field.codePointCount(0, field.length()) >= MIN_NAMING_CHARS && uniqueTo(record, field, list)
                        && Mentions.states(message, field)) {
                    chosen.add(record);
                    break;
                }
            }
        }
        return chosen;
    }

    private static boolean uniqueTo(JsonNode record, String field, List<JsonNode> list) {
        return list.stream().noneMatch(other -> other != record && Scalars.fieldsOf(other).contains(field));
    }

    private static List<JsonNode> successfulResultsLatestFirst(Episode episode) {
        List<JsonNode> results = new ArrayList<>();
        for (Event e : episode.events()) {
            if (e instanceof Event.ToolResult r && !r.error()) {
                try {
                    results.add(CanonicalJson.parse(r.content()));
                } catch (IllegalArgumentException notJson) {
                    // Plain text holds no records.
                }
            }
        }
        Collections.reverse(results);
        return results;
    }
}
