package dev.stretto.proxy.active;

import dev.stretto.proxy.JudgeSettings;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The confirmation judge in a session ({@code --confirm-judge log|enforce}): how it judges and
 * where its judgments are logged. It checks the calls the domain's guards check for a
 * confirmation, so it needs the guards; the conversation ({@code --context}) to judge by; and
 * the session's oracle ({@link ActiveMode#oracle()}) to ask.
 *
 * @param settings how it judges (mode, threshold, second question, question budget)
 * @param model    the model id its questions name: the session's oracle's
 * @param log      the confirm log ({@code --confirm-log FILE}; a leading {@code ~} is the home
 *                 directory), or null for {@code <session>.confirm.jsonl} next to the session
 *                 log when the session is recorded, and no confirm log otherwise
 */
public record ConfirmJudge(JudgeSettings settings, String model, Path log) {

    /** @throws NullPointerException if the settings or the model are null */
    public ConfirmJudge {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(model, "model");
    }

    /** This judge with its judgments logged to {@code file} instead. */
    public ConfirmJudge withLog(Path file) {
        return new ConfirmJudge(settings, model, file);
    }
}
