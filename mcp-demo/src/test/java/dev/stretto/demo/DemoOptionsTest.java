package dev.stretto.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DemoOptionsTest {

    private static DemoOptions serve(String... args) throws DemoOptions.UsageException {
        return assertInstanceOf(DemoOptions.Serve.class, DemoOptions.parse(List.of(args))).options();
    }

    @Test
    void defaultsToTheEchoWorldOnStdio() throws Exception {
        DemoOptions options = serve();
        assertEquals(new EchoWorld(), options.world());
        assertEquals(Set.of(), options.hidden());
        assertEquals(Map.of(), options.hints());
        assertEquals(Optional.empty(), options.http());
        assertEquals(Optional.empty(), options.requireAuth());
    }

    @Test
    void readsEveryOptionInBothSpellings() throws Exception {
        DemoOptions options = serve("--world", "retail", "--hide=get_order_details", "--hint",
                "find_user_id_by_email=none", "--hint=cancel_pending_order=false", "--http", "127.0.0.1:0",
                "--require-auth=Bearer a=b");
        assertEquals(new RetailWorld(), options.world());
        assertEquals(Set.of("get_order_details"), options.hidden());
        assertEquals(Map.of("find_user_id_by_email", Hint.NONE, "cancel_pending_order", Hint.WRITE),
                options.hints());
        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 0)), options.http());
        assertEquals(Optional.of("Bearer a=b"), options.requireAuth());
        assertEquals(List.of("find_user_id_by_email", "get_user_details", "cancel_pending_order"),
                options.toolBox().listed().stream().map(Tool::name).toList());
    }

    @Test
    void helpAndVersionWinOverTheRest() throws Exception {
        assertInstanceOf(DemoOptions.Help.class, DemoOptions.parse(List.of("--world", "retail", "--help")));
        assertInstanceOf(DemoOptions.Version.class, DemoOptions.parse(List.of("--version")));
        assertInstanceOf(DemoOptions.Help.class, DemoOptions.parse(List.of("-h")));
    }

    @Test
    void acceptsAnIpv6Address() throws Exception {
        assertEquals(Optional.of(new InetSocketAddress("::1", 8080)), serve("--http", "[::1]:8080").http());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--bogus|unknown option --bogus",
            "extra|unexpected argument extra (the demo takes options only)",
            "--world|--world needs a value",
            "--world mars|--world mars: the worlds are echo, retail and tau2-retail",
            "--hide nope|--hide nope: the echo world has no such tool (it has lookup, update)",
            "--world retail --hint lookup=none|--hint lookup: the retail world has no such tool (it has "
                    + "find_user_id_by_email, get_user_details, get_order_details, cancel_pending_order)",
            "--hint lookup=true|--hint lookup=true: the hint is false (list the tool as a write) or none (no annotations)",
            "--hint lookup|--hint lookup: expected TOOL=false or TOOL=none",
            "--require-auth x|--require-auth needs --http",
            "--rug-pull lookup|--rug-pull lookup: expected TOOL=DESCRIPTION",
            "--rug-pull nope=x|--rug-pull nope: the echo world has no such tool (it has lookup, update)",
            "--http 127.0.0.1|--http 127.0.0.1: expected HOST:PORT, e.g. 127.0.0.1:0",
            "--http 127.0.0.1:70000|--http 127.0.0.1:70000: expected HOST:PORT with a port from 0 to 65535",
            "--http :80|--http :80: expected HOST:PORT, e.g. 127.0.0.1:0"})
    void badUsageSaysWhatIsWrong(String args, String message) {
        var e = assertThrows(DemoOptions.UsageException.class,
                () -> DemoOptions.parse(Arrays.asList(args.split(" "))));
        assertEquals(message, e.getMessage());
    }
}
