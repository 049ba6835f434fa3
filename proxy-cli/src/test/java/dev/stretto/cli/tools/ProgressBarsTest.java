package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarsTest {

    private static String said(boolean bars) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ProgressBars p = new ProgressBars(new PrintStream(err, true, StandardCharsets.UTF_8), bars);
        p.start("alpha", 4);
        for (int i = 1; i <= 4; i++) {
            p.update(i);
        }
        p.line("alpha 0.7");
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutATerminalOnlyThePhaseLinesAreWritten() {
        assertEquals("stretto: alpha 0.7\n", said(false));
    }

    @Test
    void onATerminalTheBarIsRedrawnInPlaceAndClearedBeforeTheLine() {
        String bar = "\rstretto: alpha [%s] %d%%";
        String expected = String.format(bar, " ".repeat(30), 0)
                + String.format(bar, "#".repeat(7) + " ".repeat(23), 25)
                + String.format(bar, "#".repeat(15) + " ".repeat(15), 50)
                + String.format(bar, "#".repeat(22) + " ".repeat(8), 75)
                + String.format(bar, "#".repeat(30), 100)
                + "\r\033[2K" + "stretto: alpha 0.7\n";
        assertEquals(expected, said(true));
    }
}
