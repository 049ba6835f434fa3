package dev.stretto.proxy.oauth;

import dev.stretto.proxy.BrowserOpener;
import dev.stretto.proxy.logging.Logger;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A browser opener that runs a command with the URL as its last argument: no shell (the URL's
 * {@code &} and {@code ?} reach the program as they are), stdin closed and stdout and stderr
 * discarded, so that nothing it prints reaches the protocol on the proxy's stdout; not waited
 * for (a browser may run for hours; the JDK reaps it when it ends).
 */
public final class CommandOpener implements BrowserOpener {

    private final List<String> command;

    public CommandOpener(List<String> command) {
        this.command = List.copyOf(command);
        if (this.command.isEmpty() || this.command.getFirst().isBlank()) {
            throw new IllegalArgumentException("the browser command is empty");
        }
    }

    /** A command line as a user writes one in an option or a variable, split at white space. */
    public static List<String> words(String commandLine) {
        return Arrays.stream(commandLine.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    /** The machine's opener, looked for at each use: {@code $BROWSER}, else {@code open} on macOS, else {@code xdg-open}. */
    public static BrowserOpener system() {
        return new BrowserOpener() {
            @Override
            public void open(URI url) throws IOException {
                List<String> found = systemCommand();
                if (found.isEmpty()) {
                    Logger.debug("no browser to open the sign-in page with (no $BROWSER, open or xdg-open)");
                    return;
                }
                new CommandOpener(found).open(url);
            }

            @Override
            public String toString() {
                return "the system's browser";
            }
        };
    }

    private static List<String> systemCommand() {
        String browser = System.getenv("BROWSER");
        if (browser != null && !browser.isBlank()) {
            return words(browser);
        }
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return List.of("open");
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "xdg-open"))) {
                    return List.of(Path.of(dir, "xdg-open").toString());
                }
            }
        }
        return List.of();
    }

    @Override
    public void open(URI url) throws IOException {
        List<String> argv = new ArrayList<>(command);
        argv.add(url.toString());
        Process p = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        p.onExit().thenAccept(done -> {
            if (done.exitValue() != 0) {
                Logger.debug("the browser command {} exited with status {}", command.getFirst(), done.exitValue());
            }
        });
    }

    @Override
    public String toString() {
        return "the command " + command;
    }
}
