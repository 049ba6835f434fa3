package dev.stretto.cli.tools;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The {@code stretto} command (bin/stretto): offline tools for reading recorded sessions.
 * The only place that calls {@link System#exit}; everything else is in {@link Stretto}.
 */
public final class StrettoMain {

    private StrettoMain() {
    }

    /** Runs the command and exits with its status. */
    public static void main(String[] args) {
        // UTF-8 whatever the platform default: logs hold any language, and pipes have no console.
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)),
                false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        java.io.Console console = System.console();
        boolean colour = console != null && console.isTerminal() && System.getenv("NO_COLOR") == null;
        int status;
        try {
            status = Stretto.run(args, System.in, out, err, colour, StderrTerminal.isTerminal(), System.getenv());
        } finally {
            out.flush();
        }
        System.exit(status);
    }
}
