package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The MCP conformance suite's server scenarios ({@code @modelcontextprotocol/conformance},
 * server mode, installed by bin/test into .cache/conformance with the Node 22 it wants), run
 * twice: against the reference server's own Streamable HTTP mode ({@code server-everything
 * streamableHttp}), and against {@code stretto-proxy --listen} in front of the same server on
 * stdio. Every scenario the server passes on its own passes through the proxy; those that pass
 * neither way are named with the reason (docs/listen.md says the same). The table goes to
 * {@code target/listen-conformance/summary.md}.
 *
 * <p>A scenario passes as the suite's summary counts it: none of its checks failed or warned.
 */
class ListenConformanceIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the server passes on its own but the proxy adds to: the proxy checks Host and Origin. */
    static final List<String> PASSED_ONLY_THROUGH_THE_PROXY = List.of("dns-rebinding-protection");

    /** The scenarios that pass neither way, and why. */
    static final Map<String, String> NOT_PASSED = new TreeMap<>(Map.ofEntries(
            Map.entry("completion-complete", "server-everything has no prompt test_prompt_with_arguments"),
            Map.entry("elicitation-sep1034-defaults", "server-everything has no tool test_elicitation_sep1034_defaults"),
            Map.entry("elicitation-sep1330-enums", "server-everything has no tool test_elicitation_sep1330_enums"),
            Map.entry("json-schema-2020-12", "server-everything has no tool json_schema_2020_12_tool"),
            Map.entry("prompts-get-embedded-resource", "server-everything has no prompt test_prompt_with_embedded_resource"),
            Map.entry("prompts-get-simple", "server-everything has no prompt test_simple_prompt"),
            Map.entry("prompts-get-with-args", "server-everything has no prompt test_prompt_with_arguments"),
            Map.entry("prompts-get-with-image", "server-everything has no prompt test_prompt_with_image"),
            Map.entry("resources-read-binary", "server-everything has no resource test://static-binary"),
            Map.entry("resources-read-text", "server-everything has no resource test://static-text"),
            Map.entry("resources-templates-read", "server-everything has no resource template test://template/{id}/data"),
            Map.entry("server-sse-polling", "server-everything has no tool test_reconnection"),
            Map.entry("tools-call-audio", "server-everything has no tool test_audio_content"),
            Map.entry("tools-call-elicitation", "server-everything has no tool test_elicitation"),
            Map.entry("tools-call-embedded-resource", "server-everything has no tool test_embedded_resource"),
            Map.entry("tools-call-image", "server-everything has no tool test_image_content"),
            Map.entry("tools-call-mixed-content", "server-everything has no tool test_multiple_content_types"),
            Map.entry("tools-call-sampling", "server-everything has no tool test_sampling"),
            Map.entry("tools-call-with-logging", "server-everything has no tool test_tool_with_logging"),
            Map.entry("tools-call-with-progress", "server-everything has no tool test_tool_with_progress")));

    @Test
    void everyScenarioTheServerPassesOnItsOwnPassesThroughTheListener() throws Exception {
        ConformanceSuite installed = ConformanceSuite.installed();
        Path node = installed.node();
        Path suite = installed.suite();
        Path out = ConformanceSuite.freshOutput("listen-conformance");

        Map<String, Boolean> direct;
        try (HttpServers.Reference server = HttpServers.Reference.start()) {
            direct = run(node, suite, server.url(), out.resolve("direct"));
        }
        Map<String, Boolean> proxied;
        try (Listener listener = Listener.start("--", HttpServers.referenceServer().toString())) {
            proxied = run(node, suite, listener.url(), out.resolve("proxy"));
            assertEquals(0, listener.terminate(), listener.proc().stderr());
        }

        StringBuilder summary = new StringBuilder("| scenario | server-everything's own HTTP | through stretto-proxy"
                + " --listen |\n| --- | --- | --- |\n");
        TreeSet<String> all = new TreeSet<>(direct.keySet());
        all.addAll(proxied.keySet());
        for (String s : all) {
            summary.append("| ").append(s).append(" | ").append(mark(direct.get(s))).append(" | ")
                    .append(mark(proxied.get(s))).append(" |\n");
        }
        long passedDirect = direct.values().stream().filter(b -> b).count();
        long passedProxied = proxied.values().stream().filter(b -> b).count();
        summary.append("\npassed: ").append(passedDirect).append(" of ").append(direct.size()).append(" on its own, ")
                .append(passedProxied).append(" of ").append(proxied.size()).append(" through the proxy\n");
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println(summary);

        assertTrue(all.size() >= 30, "the suite's server scenarios: " + all);
        TreeSet<String> lost = new TreeSet<>();
        TreeSet<String> failed = new TreeSet<>();
        for (String s : all) {
            if (Boolean.TRUE.equals(direct.get(s)) && !Boolean.TRUE.equals(proxied.get(s))) {
                lost.add(s);
            }
            if (!Boolean.TRUE.equals(proxied.get(s))) {
                failed.add(s);
            }
        }
        assertEquals(new TreeSet<String>(), lost, "passed on its own, not through the proxy; see " + out + "\n" + summary);
        assertEquals(new TreeSet<>(NOT_PASSED.keySet()), failed, "the scenarios not passed through the proxy are those"
                + " docs/listen.md names\n" + summary);
        for (String s : PASSED_ONLY_THROUGH_THE_PROXY) {
            assertEquals(false, direct.get(s), s + " on the server's own\n" + summary);
        }
    }

    private static String mark(Boolean passed) {
        return passed == null ? "not run" : passed ? "passed" : "failed";
    }

    /** One run of every server scenario against {@code url}: each scenario, and whether it passed. */
    private static Map<String, Boolean> run(Path node, Path suite, String url, Path dir) throws Exception {
        Files.createDirectories(dir);
        try (Proc p = Proc.start(List.of(node.toString(), suite.toString(), "server", "--url", url, "--suite", "all",
                "-o", dir.toString()), null, Map.of())) {
            // The suite exits 1 when a scenario fails; what counts is each scenario's checks.
            p.waitFor();
            Files.writeString(dir.resolve("suite.out"), new String(p.stdoutBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    + p.stderr());
        }
        Map<String, Boolean> results = new TreeMap<>();
        try (Stream<Path> runs = Files.list(dir)) {
            for (Path run : runs.filter(Files::isDirectory).toList()) {
                String name = run.getFileName().toString().replaceFirst("^server-", "")
                        .replaceFirst("-\\d{4}-\\d{2}-\\d{2}T.*$", "");
                Path checks = run.resolve("checks.json");
                boolean passed = Files.isRegularFile(checks);
                if (passed) {
                    for (JsonNode check : JSON.readTree(checks.toFile())) {
                        String status = check.path("status").asText();
                        passed &= !status.equals("FAILURE") && !status.equals("WARNING");
                    }
                }
                results.put(name, passed);
            }
        }
        return results;
    }

}
