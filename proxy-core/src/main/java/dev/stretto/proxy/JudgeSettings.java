package dev.stretto.proxy;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * The confirmation judge of a session ({@code --confirm-judge log|enforce} and the {@code
 * --confirm-*} options): once the guards let a write through that they check for the customer's
 * confirmation, the System-One model is asked whether the customer explicitly agreed to it; in
 * {@link Mode#ENFORCE} a write it says was not agreed to is refused. It needs the guards, the
 * conversation file and an {@link Oracle} ({@link ActiveSettings.Builder}). A judge that cannot
 * answer (no key, a replay miss, an error, its questions spent) refuses nothing.
 *
 * @param mode         {@link Mode#LOG} (judge and log) or {@link Mode#ENFORCE} (also refuse)
 * @param threshold    an answer below it is a no ({@code --confirm-threshold}, default 0.5)
 * @param second       the second question, or null for none ({@code --confirm-second})
 * @param secondShadow whether the second answer is only logged and does not count
 *                     ({@code --confirm-second-shadow})
 * @param questions    how many questions the session may ask ({@code --confirm-questions},
 *                     default 100); later writes are logged as skipped
 * @param log          the confirm log ({@code --confirm-log FILE}; a leading {@code ~} is the
 *                     home directory of {@link ProxyConfig#host()}), or null for {@code
 *                     <session>.confirm.jsonl} next to the session log when the session is
 *                     recorded, and none otherwise
 */
public record JudgeSettings(Mode mode, double threshold, Second second, boolean secondShadow, int questions,
                            Path log) {

    /** The threshold unless one is given. */
    public static final double DEFAULT_THRESHOLD = 0.5;

    /** The session's question budget unless one is given. */
    public static final int DEFAULT_QUESTIONS = 100;

    /** What the judge does with its answer. */
    public enum Mode {
        /** Judge and log; refuse nothing. */
        LOG,
        /** Judge, log, and refuse a write whose counting answer is a no. */
        ENFORCE
    }

    /** The second question ({@code --confirm-second}), asked about the same state. */
    public enum Second {
        /** Had the agent proposed this change before the customer's reply? */
        PROPOSED,
        /** Did the agent's last message describe this exact change? */
        DESCRIBED;

        /**
         * The question's id, which is also its name on the command line.
         *
         * @return {@code proposed} or {@code described}
         */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Checks the settings.
     *
     * @throws NullPointerException     if the mode is null
     * @throws IllegalArgumentException if the threshold is not between 0 and 1, the budget is
     *                                  negative, or a shadow is asked for without a second
     *                                  question
     */
    public JudgeSettings {
        Objects.requireNonNull(mode, "mode");
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("the confirmation threshold must be between 0 and 1");
        }
        if (questions < 0) {
            throw new IllegalArgumentException("the question budget cannot be negative");
        }
        if (secondShadow && second == null) {
            throw new IllegalArgumentException("a shadow second question needs a second question");
        }
    }

    /**
     * The defaults of a mode: threshold 0.5, no second question, 100 questions, the default log.
     *
     * @param mode log or enforce
     * @return the settings
     */
    public static JudgeSettings of(Mode mode) {
        return new JudgeSettings(mode, DEFAULT_THRESHOLD, null, false, DEFAULT_QUESTIONS, null);
    }

    /**
     * The same settings with another threshold.
     *
     * @param newThreshold from 0 to 1
     * @return the settings
     */
    public JudgeSettings withThreshold(double newThreshold) {
        return new JudgeSettings(mode, newThreshold, second, secondShadow, questions, log);
    }

    /**
     * The same settings with a second question.
     *
     * @param newSecond the question
     * @param shadow    true to only log its answer, false to let it count
     * @return the settings
     */
    public JudgeSettings withSecond(Second newSecond, boolean shadow) {
        return new JudgeSettings(mode, threshold, newSecond, shadow, questions, log);
    }

    /**
     * The same settings with another question budget.
     *
     * @param newQuestions 0 or more
     * @return the settings
     */
    public JudgeSettings withQuestions(int newQuestions) {
        return new JudgeSettings(mode, threshold, second, secondShadow, newQuestions, log);
    }

    /**
     * The same settings with the judgments logged to another file.
     *
     * @param file the confirm log, or null for the default
     * @return the settings
     */
    public JudgeSettings withLog(Path file) {
        return new JudgeSettings(mode, threshold, second, secondShadow, questions, file);
    }
}
