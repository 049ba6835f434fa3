package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.stretto.cli.tools.StrettoMain;
import dev.stretto.proxy.Proxy;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.File;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The commands run as the named module {@code dev.stretto.cli} on the module path, beside
 * proxy-core and trace-reader as named modules: the module reads only what they export, and
 * the proxy, a session and the flow tools work so.
 */
class NamedModuleTest {

    record Ran(int status, String out, String err) {
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Ran run(String input, String main, String... args) throws Exception {
        String modulePath = Stream.of(ProxyMain.class, Proxy.class, SessionLog.class, ObjectMapper.class,
                        JsonParser.class, JsonProperty.class, TomlMapper.class)
                .map(NamedModuleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "--enable-native-access=dev.stretto.proxy", "--module-path", modulePath,
                "--module", "dev.stretto.cli/" + main));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the command did not end: " + command);
        return new Ran(p.exitValue(), out, err);
    }

    @Test
    void theProxyRunsASessionAsANamedModule() throws Exception {
        Ran version = run("", ProxyMain.class.getName(), "--version");
        assertEquals(new Ran(0, "stretto-proxy " + Version.CURRENT + "\n", ""), version);
        Ran session = run("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n", ProxyMain.class.getName(),
                "--log-level", "off", "--", "cat");
        assertEquals(new Ran(0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n", ""), session);
    }

    @Test
    void theFlowToolsRunAsANamedModule() throws Exception {
        Ran shown = run("", StrettoMain.class.getName(), "flow-show", Fixtures.file("home/shop.flow.json").toString());
        assertEquals(0, shown.status(), shown.err());
        assertTrue(shown.out().startsWith("The shop flow ("), shown.out());
        Ran guards = run("", StrettoMain.class.getName(), "guards", "--domain", "retail",
                Fixtures.file("home/logs/retail").toString());
        assertEquals(0, guards.status(), guards.err());
        assertTrue(guards.out().contains("retail.authenticated"), guards.out());
    }
}
