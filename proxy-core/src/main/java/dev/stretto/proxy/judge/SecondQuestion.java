package dev.stretto.proxy.judge;

import dev.stretto.proxy.oracle.Question;
import java.util.Locale;

/**
 * The optional second question ({@code --confirm-second proposed|described}), asked about the
 * same state in a request of its own.
 */
public enum SecondQuestion {
    /** Had the agent proposed this change before the customer's reply? */
    PROPOSED(ConfirmQuestions.PROPOSED),
    /** Did the agent's last message describe this exact change? */
    DESCRIBED(ConfirmQuestions.DESCRIBED);

    private final Question.Noul question;

    SecondQuestion(Question.Noul question) {
        this.question = question;
    }

    /** The question's id, which is also its command-line name: {@code proposed} or {@code described}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The question, word for word. */
    public Question.Noul question() {
        return question;
    }
}
