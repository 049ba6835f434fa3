package dev.stretto.cli.tools;

import dev.stretto.cli.console.ConsoleServer;
import dev.stretto.cli.console.source.Root;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code stretto console}: its options and help; the server is {@link ConsoleServer}'s. It runs
 * until the process is stopped (Ctrl-C).
 */
final class ConsoleCli {

    static final String COMMAND = "console";

    static final String HELP = """
            Usage: stretto console [--port N] [--no-open] [DIR...]

            Serves the console, a web application on 127.0.0.1 only: every session recorded
            under the directories in a list you filter (domain, mode, dates, tool names and
            arguments), each session as a timeline (the conversation, each call with its
            arguments and result, refusals with their rule, commits, the judge's verdicts, the
            flow's lookups after each call, the calls' timings, every item's log line), live
            while it is still being recorded; the flow files found, as flow-show prints them,
            with the sessions served or shadowed with each; and the guards' verdicts on each
            directory's sessions, as guards prints them.

            It prints one line on stderr with its address, which carries a random token: a
            request without it is refused (logs hold whatever the tools read). It opens the
            address in the default browser when one can be found ($BROWSER, xdg-open, open).
            Only files below the directories are read, and no symbolic link is followed below
            them. It runs until stopped (Ctrl-C).

            DIR: directories read whole, subdirectories too: session logs (*.jsonl), the flow
            and judge logs beside them, flow files (*.flow.json). Default: ~/.stretto, its
            logs/ and shadow/ and the flows directly in it (read as they appear, even if they
            do not exist yet).

            Options:
              --port N     listen on port N of 127.0.0.1 (default: a free port)
              --no-open    print the address only, open no browser
              -h, --help   show this help

            Exit status (when it does not run):
              1  a DIR is missing or not a directory, or the port cannot be had
                 (stderr: stretto: <what>: <reason>)
              2  usage error (stderr: stretto: console: <what is wrong> (see ... --help))
            """;

    private ConsoleCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--no-open", "--help", "-h"), Set.of("--port"));
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        int port = port(a.values().get("--port"));
        List<Root> roots = new ArrayList<>();
        if (a.operands().isEmpty()) {
            String home = env.get("HOME");
            roots.add(Root.stretto(Path.of(home == null || home.isEmpty() ? System.getProperty("user.home") : home)));
        } else {
            for (String dir : a.operands()) {
                Path p = Path.of(dir);
                if (!Files.isDirectory(p)) {
                    if (!Files.exists(p)) {
                        throw new java.nio.file.NoSuchFileException(dir);
                    }
                    throw new java.nio.file.NotDirectoryException(dir);
                }
                roots.add(Root.given(p));
            }
        }
        ConsoleServer console;
        try {
            console = ConsoleServer.start(roots, port, new ConsoleEngine(), err);
        } catch (BindException e) {
            throw new IOException("console: port " + port + " cannot be had: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(console::close, "stretto-console-stop"));
        List<String> browser = a.has("--no-open") ? null : browser(env, console.url().toString());
        err.println("stretto: console at " + console.url() + (a.has("--no-open") ? ""
                : browser == null ? " (no browser found to open it in)" : " (opening it in the browser)")
                + "; Ctrl-C stops it");
        if (browser != null) {
            open(browser, err);
        }
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        console.close();
        return Stretto.EXIT_OK;
    }

    private static int port(String value) throws UsageException {
        if (value == null) {
            return 0;
        }
        try {
            int p = Integer.parseInt(value);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new UsageException(COMMAND, "--port takes a port number from 0 to 65535, not '" + value + "'");
    }

    /**
     * The command that opens {@code url} in the default browser: $BROWSER (each of its
     * colon-separated commands, {@code %s} standing for the address), else xdg-open, else
     * macOS's open; null when none is found.
     */
    static List<String> browser(Map<String, String> env, String url) {
        String path = env.getOrDefault("PATH", "");
        String browsers = env.get("BROWSER");
        if (browsers != null && !browsers.isBlank()) {
            for (String b : browsers.split(":")) {
                List<String> words = new ArrayList<>(List.of(b.strip().split("\\s+")));
                if (words.isEmpty() || words.getFirst().isEmpty() || onPath(words.getFirst(), path) == null) {
                    continue;
                }
                boolean placed = false;
                for (int i = 0; i < words.size(); i++) {
                    if (words.get(i).contains("%s")) {
                        words.set(i, words.get(i).replace("%s", url));
                        placed = true;
                    }
                }
                if (!placed) {
                    words.add(url);
                }
                return words;
            }
        }
        for (String opener : List.of("xdg-open", "open")) {
            if (onPath(opener, path) != null && (!opener.equals("open")
                    || System.getProperty("os.name", "").startsWith("Mac"))) {
                return List.of(opener, url);
            }
        }
        return null;
    }

    private static Path onPath(String command, String path) {
        if (command.contains("/")) {
            Path p = Path.of(command);
            return Files.isExecutable(p) ? p : null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, command);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    private static void open(List<String> command, PrintStream err) {
        try {
            new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            err.println("stretto: console: the browser could not be started (" + command.getFirst() + "): "
                    + e.getMessage());
        }
    }
}
