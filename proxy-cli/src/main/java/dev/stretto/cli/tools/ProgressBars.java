package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.Progress;
import java.io.PrintStream;

/**
 * What {@code stretto learn} and {@code promote} say on stderr while they work: one line per
 * phase with its counts, and, only when stderr is a terminal, a bar for the long phases that is
 * redrawn in place and cleared when the phase ends (so logs and pipes never see it).
 */
final class ProgressBars implements Progress {

    private static final int WIDTH = 30;

    private final PrintStream err;
    private final boolean bars;
    private String label;
    private int total;
    private int drawn = -1;

    /**
     * @param err  stderr
     * @param bars whether stderr is a terminal, where a bar may be drawn
     */
    ProgressBars(PrintStream err, boolean bars) {
        this.err = err;
        this.bars = bars;
    }

    /** Says one line: {@code stretto: <line>}. */
    @Override
    public void line(String line) {
        clearBar();
        err.println("stretto: " + line);
    }

    /** Starts a bar of {@code total} units (drawn only on a terminal). */
    @Override
    public void start(String label, int total) {
        clearBar();
        this.label = label;
        this.total = total;
        this.drawn = -1;
        update(0);
    }

    /** Moves the bar to {@code done} units; redraws only when the shown percentage changes. */
    @Override
    public void update(int done) {
        if (!bars || label == null || total <= 0) {
            return;
        }
        int percent = (int) (100L * Math.min(done, total) / total);
        if (percent == drawn) {
            return;
        }
        drawn = percent;
        int filled = percent * WIDTH / 100;
        err.print("\rstretto: " + label + " [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] "
                + percent + "%");
        err.flush();
    }

    private void clearBar() {
        if (bars && drawn >= 0) {
            err.print("\r\033[2K");
            err.flush();
        }
        label = null;
        drawn = -1;
    }
}
