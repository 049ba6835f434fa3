package dev.stretto.cli.console.source;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One judgment of the confirmation judge: whether the customer agreed to a write.
 *
 * @param tool         the write's tool
 * @param arguments    its arguments
 * @param outcome      the verdict
 * @param pYes         the model's probability that the customer agreed, or null
 * @param pSecond      the answer to the second question, or null
 * @param secondShadow whether the second answer was only logged
 * @param wordList     whether the word list found a confirming word
 * @param ms           how long the write waited for the judgment
 * @param detail       why nothing was asked or no answer came, or null
 * @param flags        what the proposal check flagged, one sentence each
 */
public record JudgeVerdict(String tool, JsonNode arguments, Outcome outcome, Double pYes, Double pSecond,
                           boolean secondShadow, boolean wordList, long ms, String detail, List<String> flags) {

    /** Copies the flags. */
    public JudgeVerdict {
        flags = List.copyOf(flags);
    }

    /** A judgment's verdict. */
    public enum Outcome {
        /** The model said the customer agreed. */
        AGREED,
        /** The model said no, and the judge enforced it: the write was refused. */
        REFUSED,
        /** The model said no, and the judge only logged it. */
        LOGGED_ONLY,
        /** Nothing was asked (its questions spent, ...). */
        SKIPPED,
        /** No answer came. */
        NO_ANSWER
    }
}
