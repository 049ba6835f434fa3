package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/stretto console --no-open} on some directories, as a user starts it, and a
 * headless browser that has opened the link it printed: the one line on stderr is checked,
 * and the browser holds the console's cookie from then on.
 *
 * @param proc    the running command
 * @param url     the address it printed, token included
 * @param base    the address without path or token: {@code http://127.0.0.1:PORT}
 * @param browser the browser, on the sessions page
 */
record ConsoleProc(Proc proc, String url, String base, Browser browser) implements AutoCloseable {

    private static final Pattern LINE = Pattern.compile(
            "stretto: console at (http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]+); Ctrl-C stops it\n");

    /**
     * Starts the console and opens it.
     *
     * @param dirs  the directories it reads
     * @param shots where the browser saves its screenshots
     */
    static ConsoleProc start(List<Path> dirs, Path shots) throws Exception {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto"), "console", "--no-open", "--port", "0"));
        dirs.forEach(d -> command.add(d.toString()));
        Proc proc = Proc.start(command);
        Browser browser = null;
        try {
            proc.awaitStderr("; Ctrl-C stops it");
            Matcher m = LINE.matcher(proc.stderr());
            assertTrue(m.find(), "one line with the address: " + proc.stderr());
            assertEquals(1, proc.stderr().lines().count(), "one line only: " + proc.stderr());
            String url = m.group(1);
            browser = new Browser(shots);
            browser.open(url);
            browser.until("the sessions page", d -> d.getTitle().startsWith("Sessions"));
            return new ConsoleProc(proc, url, url.substring(0, url.indexOf("/?")), browser);
        } catch (Exception | AssertionError e) {
            try {
                if (browser != null) {
                    browser.close();
                }
            } finally {
                proc.close();
            }
            throw e;
        }
    }

    /** Closes the browser, then stops the console. */
    @Override
    public void close() throws Exception {
        try {
            browser.close();
        } finally {
            proc.close();
        }
    }
}
