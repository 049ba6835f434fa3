package dev.stretto.cli;

import dev.stretto.proxy.JudgeSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stretto-proxy}'s confirmation judge options (formats 10, 11.1), checked:
 * {@code --confirm-judge log|enforce} and what goes with it. Every one of them but
 * {@code --confirm-judge} needs it; a value that is not one the option takes is an
 * {@link IllegalArgumentException} whose message is the usage error. (That the judge needs
 * {@code --guards} and {@code --context} is checked with the other active-mode options.)
 */
final class JudgeArgs {

    /** The option that switches the judge on. */
    static final String JUDGE = "--confirm-judge";

    /** The flag that makes the second question a shadow. */
    static final String SHADOW = "--confirm-second-shadow";

    /** The judge's options that take a value. */
    static final List<String> WITH_VALUE = List.of(JUDGE, "--confirm-threshold", "--confirm-second",
            "--confirm-questions", "--confirm-log");

    private JudgeArgs() {
    }

    /**
     * The judge's options, or null when {@code --confirm-judge} is not given.
     *
     * @param values the options with a value, by name
     * @param flags  the switches given
     * @throws IllegalArgumentException with the usage error
     */
    static JudgeSettings parse(Map<String, String> values, Set<String> flags) {
        if (!values.containsKey(JUDGE)) {
            for (String option : WITH_VALUE) {
                if (values.containsKey(option)) {
                    throw withoutTheJudge(option);
                }
            }
            if (flags.contains(SHADOW)) {
                throw withoutTheJudge(SHADOW);
            }
            return null;
        }
        JudgeSettings.Mode mode = switch (values.get(JUDGE)) {
            case "log" -> JudgeSettings.Mode.LOG;
            case "enforce" -> JudgeSettings.Mode.ENFORCE;
            default -> throw new IllegalArgumentException(JUDGE + " takes log or enforce, not '" + values.get(JUDGE)
                    + "'");
        };
        JudgeSettings settings = JudgeSettings.of(mode);
        String threshold = values.get("--confirm-threshold");
        if (threshold != null) {
            settings = settings.withThreshold(probability(threshold));
        }
        String second = values.get("--confirm-second");
        boolean shadow = flags.contains(SHADOW);
        if (second != null) {
            JudgeSettings.Second question = switch (second) {
                case "proposed" -> JudgeSettings.Second.PROPOSED;
                case "described" -> JudgeSettings.Second.DESCRIBED;
                default -> throw new IllegalArgumentException("--confirm-second takes proposed or described, not '"
                        + second + "'");
            };
            settings = settings.withSecond(question, shadow);
        } else if (shadow) {
            throw new IllegalArgumentException(SHADOW + " makes the second question a shadow; give --confirm-second"
                    + " proposed|described too");
        }
        String questions = values.get("--confirm-questions");
        if (questions != null) {
            settings = settings.withQuestions(count(questions));
        }
        return settings.withLog(ProxyArgs.path(values, "--confirm-log"));
    }

    private static IllegalArgumentException withoutTheJudge(String option) {
        return new IllegalArgumentException(option + " is an option of the confirmation judge; give " + JUDGE
                + " log|enforce too");
    }

    private static double probability(String text) {
        double t;
        try {
            t = text.matches("[0-9.eE+-]+") ? Double.parseDouble(text) : Double.NaN;
        } catch (NumberFormatException e) {
            t = Double.NaN;
        }
        if (!(t >= 0 && t <= 1)) {
            throw new IllegalArgumentException("--confirm-threshold needs a probability from 0 to 1 (e.g. 0.5), not '"
                    + text + "'");
        }
        return t;
    }

    private static int count(String text) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0) {
            throw new IllegalArgumentException("--confirm-questions needs a whole number of questions (0 or more), not '"
                    + text + "'");
        }
        return n;
    }
}
