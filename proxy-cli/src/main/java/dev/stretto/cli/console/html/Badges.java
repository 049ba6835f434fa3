package dev.stretto.cli.console.html;

import dev.stretto.cli.console.index.Mode;
import java.util.Set;

/** The small marks the pages share: modes, and the live dot. */
final class Badges {

    private Badges() {
    }

    /** Writes a session's modes, in the enum's order. */
    static void modes(Html out, Set<Mode> modes) {
        out.open("span", "class", "modes");
        for (Mode m : Mode.values()) {
            if (modes.contains(m)) {
                out.el("span", m.word(), "class", "mode mode-" + m.word(), "title", m.meaning());
            }
        }
        out.close("span");
    }

    /** Writes the mark of a session whose proxy still runs. */
    static void recording(Html out) {
        out.open("span", "class", "rec", "title", "its proxy is still running: the log is being written")
                .el("span", "", "class", "dot").text("recording").close("span");
    }

    /** Writes a mark: {@code kind} picks the colour. */
    static void mark(Html out, String text, String kind, String title) {
        out.el("span", text, "class", "mark mark-" + kind, "title", title);
    }
}
