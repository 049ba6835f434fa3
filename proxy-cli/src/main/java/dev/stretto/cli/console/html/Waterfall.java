package dev.stretto.cli.console.html;

import dev.stretto.trace.episode.Timeline;
import java.util.List;
import java.util.Map;

/**
 * The calls' timings as bars on one time axis, from the session's start to its last line:
 * where each call was sent, how long it waited for its result, which ran side by side. Bars are
 * SVG shapes sized by attributes (the policy allows no style attributes); each row links to its
 * call in the timeline.
 */
final class Waterfall {

    /** More rows than this are left out of the chart (the timeline has them all). */
    static final int MAX_ROWS = 400;
    private static final int WIDTH = 1000;

    private Waterfall() {
    }

    static void write(Html out, Timeline timeline, Map<Timeline.Call, Integer> index, boolean recording) {
        List<Timeline.Call> calls = timeline.calls();
        if (calls.isEmpty()) {
            return;
        }
        long end = Math.max(1, timeline.endMs());
        for (Timeline.Call c : calls) {
            end = Math.max(end, c.result() != null ? c.result().tMs() : c.sentMs());
        }
        out.open("section", "class", "card waterfall", "aria-label", "timings");
        out.open("div", "class", "card-head").el("h2", "Timings");
        out.el("span", "each call from the request to its result, on the session's clock", "class", "hint");
        out.close("div");
        out.open("div", "class", "wf-grid");
        out.open("div", "class", "wf-axis").el("span", "", "class", "wf-label");
        out.open("span", "class", "wf-ticks");
        for (int i = 0; i <= 4; i++) {
            out.el("span", Format.duration(end * i / 4));
        }
        out.close("span").el("span", "", "class", "wf-dur").close("div");
        int shown = 0;
        for (Timeline.Call c : calls) {
            if (shown++ == MAX_ROWS) {
                break;
            }
            row(out, timeline, c, index.get(c), end, recording);
        }
        out.close("div");
        if (calls.size() > MAX_ROWS) {
            out.el("p", "The first " + MAX_ROWS + " of " + Format.count(calls.size())
                    + " calls are drawn; the timeline below has every one.", "class", "hint");
        }
        out.close("section");
    }

    private static void row(Html out, Timeline timeline, Timeline.Call c, int index, long end, boolean recording) {
        Timeline.Turn turn = timeline.turns().get(Math.max(0, c.turn() - 1));
        String kind = kind(turn, c);
        boolean pending = c.result() == null && c.cancelledMs() == null && !c.replaced();
        long stop = c.result() != null ? c.result().tMs() : c.cancelledMs() != null ? c.cancelledMs() : end;
        double x = c.sentMs() * (double) WIDTH / end;
        double w = Math.max(3, (stop - c.sentMs()) * (double) WIDTH / end);
        if (x + w > WIDTH) {
            x = Math.max(0, WIDTH - w);
        }
        out.open("div", "class", "wf-row " + kind + (pending ? " pending" : ""));
        out.open("a", "class", "wf-label", "href", "#c" + index, "data-open", "c" + index,
                "title", c.name() + " at " + c.sentMs() + " ms");
        out.el("span", "T" + c.turn(), "class", "wf-turn");
        out.el("span", c.name().isEmpty() ? "(no name)" : c.name(), "class", "wf-name");
        out.close("a");
        out.open("svg", "class", "wf-bar", "viewBox", "0 0 " + WIDTH + " 10", "preserveAspectRatio", "none",
                "role", "img", "aria-label", c.name() + " " + (c.result() == null ? "no result" : c.durationMs() + " ms"));
        out.leaf("rect", "class", "track", "x", "0", "y", "4", "width", Integer.toString(WIDTH), "height", "2");
        out.leaf("rect", "class", "bar", "x", fixed(x), "y", "0", "width", fixed(w), "height", "10", "rx", "2");
        out.close("svg");
        String dur = c.result() != null ? Format.duration(c.durationMs())
                : c.cancelledMs() != null ? "cancelled" : c.replaced() ? "replaced" : recording ? "waiting" : "no answer";
        out.el("span", dur, "class", "wf-dur");
        out.close("div");
    }

    /** The kind of a call, for its colour: the same words the timeline's cards use. */
    static String kind(Timeline.Turn turn, Timeline.Call c) {
        if (c.isRefused()) {
            return "refused";
        }
        if (c.result() != null && c.result().error()) {
            return "error";
        }
        if (c.isCommit()) {
            return "commit";
        }
        if (turn.commitOf(c) != null) {
            return "bycommit";
        }
        return c.isLookup() ? "lookup" : "agent";
    }

    private static String fixed(double d) {
        return String.format(java.util.Locale.ROOT, "%.2f", d);
    }
}
