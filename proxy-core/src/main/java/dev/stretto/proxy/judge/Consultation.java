package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.proxy.oracle.Request;
import java.util.List;
import java.util.Objects;

/**
 * A call the judge is about to judge, and what it needs answered: made by
 * {@link Judge#consult}, concluded by {@link Judge#conclude} once {@link #requests()} have
 * replies.
 *
 * @param tool          the tool the call is for
 * @param arguments     the call's arguments; a private copy
 * @param wordList      whether the domain's {@code .confirmed} guard rule (the word list) passed
 * @param exchange      the exchange the change is judged on
 * @param confirmed     the request with the {@code confirmed} question
 * @param second        the request with the second question, or null when none is configured
 * @param skipped       why nothing is asked (the budget is spent), or null
 * @param proposalCheck the values {@link ProposalCheck} flags
 */
public record Consultation(String tool, JsonNode arguments, boolean wordList, Exchange exchange, Request confirmed,
                           Request second, String skipped, List<ConfirmLog.Flag> proposalCheck) {

    /** The reason logged as {@code skipped} when the session's questions are used up. */
    public static final String BUDGET_SPENT = "the session's question budget is spent";

    /** @throws NullPointerException if anything but {@code second} and {@code skipped} is null */
    public Consultation {
        Objects.requireNonNull(tool, "tool");
        arguments = arguments.deepCopy();
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(confirmed, "confirmed");
        proposalCheck = List.copyOf(proposalCheck);
    }

    /** The arguments; a copy, since JSON trees are mutable. */
    @Override
    public JsonNode arguments() {
        return arguments.deepCopy();
    }

    /**
     * What to ask, in order: the {@code confirmed} request, then the second one if configured;
     * nothing when the consultation is skipped.
     */
    public List<Request> requests() {
        if (skipped != null) {
            return List.of();
        }
        return second == null ? List.of(confirmed) : List.of(confirmed, second);
    }
}
