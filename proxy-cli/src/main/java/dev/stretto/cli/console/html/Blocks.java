package dev.stretto.cli.console.html;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Long values shown in a few lines: JSON pretty-printed, text as it is, and past
 * {@link #CLIP_LINES} lines cut off with a button that shows the rest.
 */
final class Blocks {

    /** Values longer than this many lines are shown cut, with a button for the rest. */
    static final int CLIP_LINES = 12;

    private Blocks() {
    }

    /** Writes a JSON value, pretty-printed. */
    static void json(Html out, JsonNode value, String extraClass) {
        Html pre = new Html();
        JsonView.write(pre, value);
        clip(out, pre, JsonView.lines(value), "json" + (extraClass == null ? "" : " " + extraClass));
    }

    /** Writes a tool's text: pretty-printed when it is one JSON object or array, else as it is. */
    static void content(Html out, String text, String extraClass) {
        JsonNode structure = JsonView.parseStructure(text);
        if (structure != null) {
            json(out, structure, extraClass);
            return;
        }
        Html pre = new Html().text(text.isEmpty() ? "(empty)" : text);
        clip(out, pre, (int) text.lines().count(), "text" + (extraClass == null ? "" : " " + extraClass));
    }

    private static void clip(Html out, Html pre, int lines, String classes) {
        if (lines <= CLIP_LINES) {
            out.open("pre", "class", classes).append(pre).close("pre");
            return;
        }
        out.open("div", "class", "clip", "data-lines", Integer.toString(lines));
        out.open("pre", "class", classes).append(pre).close("pre");
        out.el("button", "Show all " + Format.count(lines) + " lines", "type", "button", "class", "unclip");
        out.close("div");
    }

    /** Writes log lines, each with its number, behind a toggle whose summary names them. */
    static void rawLines(Html out, java.util.List<dev.stretto.cli.console.source.LogLines.Line> lines) {
        if (lines.isEmpty()) {
            return;
        }
        StringBuilder numbers = new StringBuilder();
        for (var l : lines) {
            numbers.append(numbers.isEmpty() ? "" : ", ").append(l.number());
        }
        out.open("details", "class", "raw");
        out.el("summary", (lines.size() == 1 ? "Log line " : "Log lines ") + numbers);
        for (var l : lines) {
            out.open("div", "class", "rawline");
            out.el("span", Integer.toString(l.number()), "class", "ln", "title", "line " + l.number() + " of the log");
            out.el("pre", l.text());
            out.el("button", "Copy", "type", "button", "class", "copy", "title", "copy the line");
            out.close("div");
        }
        out.close("details");
    }
}
