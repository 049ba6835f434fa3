package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.stretto.cli.tools.StrettoMain;
import dev.stretto.proxy.Proxy;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * the proxy, a session, the flow tools, show --html and the console work so.
 */
class NamedModuleTest {

    record Ran(int status, String out, String err) {
    }

    /** proxy-core reads YAML policies with these (the CLI itself does not read them, so it names no class of theirs). */
    private static final String YAML = "com.fasterxml.jackson.dataformat.yaml.YAMLFactory";
    private static final String SNAKE_YAML = "org.yaml.snakeyaml.LoaderOptions";

    private static Class<?> named(String name) {
        try {
            return Class.forName(name, false, NamedModuleTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("not on the test's path: " + name, e);
        }
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The command line that runs {@code main} of the module dev.stretto.cli on the module path. */
    private static List<String> command(String main, String... args) {
        String modulePath = Stream.of(ProxyMain.class, Proxy.class, SessionLog.class, ObjectMapper.class,
                        JsonParser.class, JsonProperty.class, TomlMapper.class, named(YAML), named(SNAKE_YAML))
                .map(NamedModuleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-preview", "--enable-native-access=dev.stretto.proxy,dev.stretto.cli", "--module-path", modulePath,
                "--module", "dev.stretto.cli/" + main));
        command.addAll(List.of(args));
        return command;
    }

    private static Ran run(String input, String main, String... args) throws Exception {
        List<String> command = command(main, args);
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
        Ran html = run("", StrettoMain.class.getName(), "show", "--html",
                Fixtures.file("home/logs/retail/20260928T020401.312Z-14780.jsonl").toString());
        assertEquals(0, html.status(), html.err());
        assertTrue(html.out().startsWith("<!DOCTYPE html>"), html.out());
        assertTrue(html.out().contains("cancel_pending_order"), "the session's calls are on the page");
    }

    @Test
    void theConsoleServesItsPagesAsANamedModule() throws Exception {
        Process p = new ProcessBuilder(command(StrettoMain.class.getName(), "console", "--no-open",
                Fixtures.file("home/logs/retail").toString())).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line = err.readLine();
            assertNotNull(line, "the console ended before it said where it listens");
            Matcher at = Pattern.compile("stretto: console at (http://127\\.0\\.0\\.1:\\d+/\\?token=\\S+);.*").matcher(line);
            assertTrue(at.matches(), line);
            HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                    .cookieHandler(new CookieManager()).build();
            HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(at.group(1)))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.body().contains("20260928T020401.312Z-14780"), "the sessions page lists the session");
        } finally {
            p.destroy();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the console did not stop on SIGTERM");
        }
    }
}
