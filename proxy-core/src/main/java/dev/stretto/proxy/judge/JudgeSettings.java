package dev.stretto.proxy.judge;

import dev.stretto.proxy.oracle.ServiceSettings;
import java.util.Objects;

/**
 * How the confirmation judge works in a session.
 *
 * @param mode         {@link Mode#LOG} (judge and log) or {@link Mode#ENFORCE} (also refuse)
 * @param threshold    an answer below it fails ({@code --confirm-threshold}, default 0.5)
 * @param second       the second question, or null for none ({@code --confirm-second})
 * @param secondShadow whether the second answer is only logged and does not count
 *                     ({@code --confirm-second-shadow})
 * @param questions    how many questions the session may ask ({@code --confirm-questions}, default 100)
 * @param model        the model id the requests name ({@code TYPESAFE_DEFAULT_MODEL}, default
 *                     {@code jev-latest}); it is part of every request's cache key
 */
public record JudgeSettings(Mode mode, double threshold, SecondQuestion second, boolean secondShadow, int questions,
                            String model) {

    /** The threshold unless configured otherwise. */
    public static final double DEFAULT_THRESHOLD = 0.5;

    /** The session's question budget unless configured otherwise. */
    public static final int DEFAULT_QUESTIONS = 100;

    /** {@code --confirm-judge log|enforce}. */
    public enum Mode {
        /** Judge and log; refuse nothing. */
        LOG,
        /** Judge, log, and refuse a call whose counting answer fails. */
        ENFORCE
    }

    /**
     * @throws NullPointerException     if the mode or model is null
     * @throws IllegalArgumentException if the threshold is not between 0 and 1, the budget is
     *                                  negative, or a shadow is asked for without a second question
     */
    public JudgeSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(model, "model");
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

    /** The defaults of a mode: threshold 0.5, no second question, 100 questions, {@code jev-latest}. */
    public static JudgeSettings of(Mode mode) {
        return new JudgeSettings(mode, DEFAULT_THRESHOLD, null, false, DEFAULT_QUESTIONS, ServiceSettings.DEFAULT_MODEL);
    }

    /** The same settings with another threshold. */
    public JudgeSettings withThreshold(double newThreshold) {
        return new JudgeSettings(mode, newThreshold, second, secondShadow, questions, model);
    }

    /** The same settings with a second question, counting or only logged ({@code shadow}). */
    public JudgeSettings withSecond(SecondQuestion newSecond, boolean shadow) {
        return new JudgeSettings(mode, threshold, newSecond, shadow, questions, model);
    }

    /** The same settings with another question budget. */
    public JudgeSettings withQuestions(int newQuestions) {
        return new JudgeSettings(mode, threshold, second, secondShadow, newQuestions, model);
    }

    /** The same settings with another model id. */
    public JudgeSettings withModel(String newModel) {
        return new JudgeSettings(mode, threshold, second, secondShadow, questions, newModel);
    }
}
