package dev.stretto.proxy.judge;

import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.oracle.Question;

/**
 * The judge's questions, word for word as the reference asks them: the question texts are
 * part of the request, and so of its cache key.
 */
public final class ConfirmQuestions {

    /** The id of the first question. */
    public static final String CONFIRMED_ID = "confirmed";

    private static final String CONTEXT =
            "An agent in a customer-service chat is about to make the change in call_about_to_be_made.";

    /** Did the customer's reply explicitly agree to the change? Asked for every judged call. */
    public static final Question.Noul CONFIRMED = new Question.Noul(CONTEXT
            + " The policy requires the agent to describe a change and get the customer's explicit yes before"
            + " making it. Did the customer's reply explicitly agree to this change?",
            new Question.NoulCriteria(
                    "The reply clearly agrees to go ahead with this change as the agent described it, for example"
                            + " 'yes', 'go ahead' or 'please do'.",
                    "The reply does not agree to this change: it asks a question, gives information, declines,"
                            + " agrees to something different, or the agent never described this change."));

    /** {@code --confirm-second proposed}: had the agent proposed this change? */
    public static final Question.Noul PROPOSED = new Question.Noul(CONTEXT
            + " The policy requires the agent to propose a change and get the customer's yes before making it."
            + " Had the agent proposed this change before the customer's reply?",
            new Question.NoulCriteria(
                    "agent_said_last proposes this change, offers it among options the customer then picked, or"
                            + " refers to it as a change the agent set out before, such as 'the upgrade on your"
                            + " reservation' or 'the cancellation'.",
                    "The customer's reply asks for a change that agent_said_last neither proposes nor refers to,"
                            + " or one that differs from what the agent proposed (another order or reservation,"
                            + " other items, another address or amount), or agent_said_last proposes a different"
                            + " change."));

    /** {@code --confirm-second described}: did the agent's message describe this exact change? */
    public static final Question.Noul DESCRIBED = new Question.Noul(CONTEXT
            + " The policy requires the agent to describe a change before the customer agrees to it. Did"
            + " agent_said_last, the agent's message before the customer's reply, describe this exact change?",
            new Question.NoulCriteria(
                    "agent_said_last describes this change: what will be done, to which order, reservation or"
                            + " items, and with what amounts, addresses or payment method where the call sets them.",
                    "agent_said_last does not describe this change: it describes nothing to be done, a different"
                            + " change (other items, amounts or payment method, or another action), or only asks"
                            + " for information."));

    private ConfirmQuestions() {
    }

    /** The second question ({@code --confirm-second}), word for word; its id is {@link JudgeSettings.Second#id()}. */
    public static Question.Noul second(JudgeSettings.Second which) {
        return switch (which) {
            case PROPOSED -> PROPOSED;
            case DESCRIBED -> DESCRIBED;
        };
    }
}
