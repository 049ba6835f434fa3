package dev.stretto.cli.tools;

import dev.stretto.trace.episode.Timeline;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Prints sessions as an aligned table: {@code stretto sessions}. */
final class SessionTable {

    private static final String[] HEADINGS =
            {"START (UTC)", "SESSION", "DOMAIN", "AGENT", "CLIENT", "CALLS", "FAILED", "TURNS", "DURATION"};
    /** Numbers are right-aligned. */
    private static final boolean[] RIGHT = {false, false, false, false, false, true, true, true, true};

    private final PrintStream out;

    SessionTable(PrintStream out) {
        this.out = out;
    }

    void print(List<Timeline> sessions) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (Timeline t : sessions) {
            rows.add(new String[] {
                    TimelinePrinter.UTC.format(Instant.ofEpochMilli(t.header().startedUnixMs())),
                    t.header().session(),
                    t.domain(),
                    orDash(t.header().agentModel()),
                    orDash(t.clientName()),
                    Integer.toString(t.calls().size()),
                    Long.toString(t.failedCalls()),
                    Integer.toString(t.turns().size()),
                    duration(t.endMs())});
        }
        TextTable.print(out, rows, RIGHT);
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }

    /** A duration for people: {@code 34 ms} under a second, else seconds with one decimal. */
    static String duration(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
