package dev.stretto.cli.console;

import dev.stretto.cli.tools.Stretto;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A {@code stretto} command line run in this JVM, with what it printed.
 *
 * @param status its exit status
 * @param out    its stdout
 * @param err    its stderr
 */
record Command(int status, String out, String err) {

    /** Runs {@code args} with an empty PATH, so that no browser is ever found to open. */
    static Command run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stretto.run(args, InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false, false, Map.of("PATH", ""));
        return new Command(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
