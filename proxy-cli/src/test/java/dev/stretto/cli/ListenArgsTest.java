package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --listen} and the options that go with it, as {@link ProxyArgs} reads them. */
class ListenArgsTest {

    private static ProxyArgs.Parsed parse(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--", "some-server"));
        return ProxyArgs.parse(all);
    }

    private static ListenOptions listen(String... args) {
        ProxyArgs.Listen l = assertInstanceOf(ProxyArgs.Listen.class, parse(args));
        return l.listen();
    }

    private static String invalid(String... args) {
        return assertInstanceOf(ProxyArgs.Invalid.class, parse(args)).message();
    }

    @Test
    void anAddressAPortAloneAndTheDefaults() {
        ListenOptions o = listen("--listen", "8080");
        assertEquals(new ListenOptions("127.0.0.1", 8080, null, Duration.ofMinutes(240), List.of(), 256), o);
        assertEquals("::1", listen("--listen", "[::1]:0").host());
        assertEquals("0.0.0.0", listen("--listen=0.0.0.0:9000").host());
        assertEquals("localhost", listen("--listen", "localhost:9").host());
        ListenOptions all = listen("--listen", "127.0.0.1:0", "--listen-token-file", "/run/t", "--listen-idle", "0.5",
                "--listen-origin", "HTTPS://App.Example.com", "--listen-origin", "http://localhost:3000",
                "--listen-max-sessions", "3", "--record", "/tmp/logs");
        assertEquals(new ListenOptions("127.0.0.1", 0, Path.of("/run/t"), Duration.ofSeconds(30),
                List.of("https://app.example.com", "http://localhost:3000"), 3), all);
        assertEquals(Duration.ZERO, listen("--listen", "1", "--listen-idle", "0").idle());
        ProxyArgs.Listen l = assertInstanceOf(ProxyArgs.Listen.class, ProxyArgs.parse(List.of("--listen", "1",
                "--upstream", "http://127.0.0.1:9/mcp")));
        assertInstanceOf(ServerChoice.Url.class, l.options().server());
    }

    @Test
    void everyBadValueIsAUsageErrorThatSaysWhy() {
        assertTrue(invalid("--listen", "nowhere").startsWith("--listen needs HOST:PORT"), invalid("--listen", "nowhere"));
        assertTrue(invalid("--listen", "1:65536").startsWith("--listen needs HOST:PORT"));
        assertTrue(invalid("--listen", "[::1]").startsWith("--listen needs HOST:PORT"));
        assertEquals("--listen-idle needs a number of minutes, 0 or more (e.g. 240 or 0.5; 0 keeps idle sessions), not"
                + " '-1'", invalid("--listen", "1", "--listen-idle=-1"));
        assertTrue(invalid("--listen", "1", "--listen-origin", "ftp://x").startsWith("--listen-origin: 'ftp://x' is"
                + " not an origin"));
        assertTrue(invalid("--listen", "1", "--listen-origin", "https://x/path").contains("not an origin"));
        assertEquals("--listen-max-sessions needs a whole number of sessions, 1 or more, not '0'",
                invalid("--listen", "1", "--listen-max-sessions", "0"));
        for (String option : List.of("--listen-token-file", "--listen-idle", "--listen-max-sessions", "--listen-origin")) {
            assertEquals(option + " is for serving hosts over HTTP; give --listen HOST:PORT too",
                    invalid(option, "5"));
        }
        assertEquals("--listen is given more than once", invalid("--listen", "1", "--listen", "2"));
    }

    @Test
    void aHostsEntryCannotListen() {
        String problem = ProxyOptionCheck.problem(List.of("--listen", "8080", "--", "x")).orElseThrow();
        assertTrue(problem.startsWith("--listen serves hosts over HTTP"), problem);
    }
}
