package dev.stretto.cli.tools;

import dev.stretto.cli.console.html.SessionPage;
import dev.stretto.cli.console.source.SessionRead;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/** {@code stretto show --html LOG}: the console's session page as one file on stdout. */
final class ShowHtml {

    private ShowHtml() {
    }

    static int print(Path log, LogFiles files, PrintStream out, PrintStream err, ConsoleEngine engine)
            throws IOException {
        // Read as show reads it first: the same messages for a missing file, a directory, a bad line.
        files.read(log);
        SessionRead read = SessionRead.ofFile(log, engine);
        if (read.runsProblem() != null) {
            err.println("stretto: " + log + ": the flow log beside it cannot be read (" + read.runsProblem()
                    + "); the flow's runs are left out");
        }
        if (read.judgeProblem() != null) {
            err.println("stretto: " + log + ": the judge's log beside it cannot be read (" + read.judgeProblem()
                    + "); its verdicts are left out");
        }
        out.print(SessionPage.file(read, engine));
        return Stretto.EXIT_OK;
    }
}
