package dev.stretto.cli.console.html;

import dev.stretto.cli.console.source.JudgeVerdict;
import java.util.ArrayList;
import java.util.List;

/** One verdict of the confirmation judge, under the write it judged. */
final class JudgeView {

    private JudgeView() {
    }

    static void write(Html m, JudgeVerdict v) {
        String kind = switch (v.outcome()) {
            case AGREED -> "agreed";
            case REFUSED -> "refused";
            case LOGGED_ONLY -> "logged";
            case SKIPPED, NO_ANSWER -> "unknown";
        };
        List<String> answers = new ArrayList<>();
        if (v.pYes() != null) {
            answers.add("p_yes " + Format.probability(v.pYes()));
        }
        if (v.pSecond() != null) {
            answers.add("p_second " + Format.probability(v.pSecond()) + (v.secondShadow() ? " shadow" : ""));
        }
        String shown = answers.isEmpty() ? "" : " (" + String.join(", ", answers) + ")";
        String verdict = switch (v.outcome()) {
            case AGREED -> "agreed" + shown;
            case REFUSED -> "refused: no explicit agreement" + shown;
            case LOGGED_ONLY -> "no explicit agreement, logged only" + shown;
            case SKIPPED -> "skipped: " + v.detail();
            case NO_ANSWER -> "no answer: " + v.detail();
        };
        m.open("div", "class", "judge " + kind);
        m.el("span", "Judge", "class", "j-title");
        m.el("span", verdict, "class", "j-verdict");
        m.el("span", "word list: " + (v.wordList() ? "yes" : "no") + " \u00b7 " + v.ms() + " ms", "class", "dim");
        for (String flag : v.flags()) {
            m.el("p", "proposal check: " + flag, "class", "j-flag");
        }
        m.close("div");
    }
}
