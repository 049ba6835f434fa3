package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProxyArgsTest {

    private static ProxyOptions ok(String... args) {
        return assertInstanceOf(ProxyArgs.Run.class, ProxyArgs.parse(List.of(args))).options();
    }

    private static String error(String... args) {
        return assertInstanceOf(ProxyArgs.Invalid.class, ProxyArgs.parse(List.of(args))).message();
    }

    @Test
    void optionsTakeTheirValueNextOrAfterEquals() {
        ProxyOptions o = ok("--record", "~/logs", "--domain=orders", "--agent-model", "claude", "--retain-days=30",
                "--", "npx", "-y", "srv", "--record", "x");
        assertEquals(Path.of("~/logs"), o.record());
        assertEquals("orders", o.domain());
        assertEquals("claude", o.agentModel());
        assertEquals(30, o.retainDays());
        assertEquals(List.of("npx", "-y", "srv", "--record", "x"), o.command());
    }

    @Test
    void onlyTheCommandIsRequired() {
        ProxyOptions o = ok("--", "cat");
        assertEquals(new ProxyOptions(null, null, null, null, null, List.of("cat")), o);
    }

    @Test
    void logLevelIsCaseInsensitive() {
        assertEquals("debug", ok("--log-level", "DEBUG", "--", "cat").logLevel());
    }

    @Test
    void helpAndVersionWinWhereverTheyAre() {
        assertInstanceOf(ProxyArgs.Help.class, ProxyArgs.parse(List.of("--record", "d", "--help")));
        assertInstanceOf(ProxyArgs.Help.class, ProxyArgs.parse(List.of("-h")));
        assertInstanceOf(ProxyArgs.Version.class, ProxyArgs.parse(List.of("--version", "--", "cat")));
        assertInstanceOf(ProxyArgs.Version.class, ProxyArgs.parse(List.of("-V")));
    }

    @Test
    void usageErrorsSayWhatIsWrongInOneLine() {
        assertEquals("unknown option --recrod", error("--recrod", "/tmp", "--", "cat"));
        assertEquals("unknown option --recrod", error("--recrod=/tmp", "--", "cat"));
        assertEquals("unknown option -x", error("-x", "--", "cat"));
        assertEquals("--record needs a value", error("--record"));
        assertEquals("--record needs a value", error("--record", "--", "cat"));
        assertEquals("--domain needs a value", error("--domain=", "--", "cat"));
        assertEquals("--domain is given more than once", error("--domain", "a", "--domain=b", "--", "cat"));
        assertEquals("missing the server command after --", error("--record", "/tmp", "--"));
        assertEquals("missing the server command (put it after --, e.g. stretto-proxy -- npx -y some-mcp-server)",
                error("--record", "/tmp"));
        assertEquals("missing the server command (put it after --, e.g. stretto-proxy -- npx -y some-mcp-server)",
                error());
        assertEquals("unexpected argument 'cat' (put the server command after --)", error("cat"));
        assertEquals("--retain-days needs a whole number of days (0 or more), not 'week'",
                error("--record", "d", "--retain-days", "week", "--", "cat"));
        assertEquals("--retain-days needs a whole number of days (0 or more), not '-3'",
                error("--record", "d", "--retain-days=-3", "--", "cat"));
        assertEquals("--retain-days cleans the --record directory; give --record DIR too",
                error("--retain-days", "3", "--", "cat"));
        assertEquals("--log-level must be one of trace, debug, info, warn, error, off; not 'loud'",
                error("--log-level", "loud", "--", "cat"));
        assertEquals("--help takes no value", error("--help=yes"));
    }
}
