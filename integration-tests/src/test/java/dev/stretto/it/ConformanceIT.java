package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The MCP conformance suite's client scenarios ({@code @modelcontextprotocol/conformance},
 * client mode, installed by bin/test into .cache/conformance with the Node 22 it wants), each
 * run twice in the same test: once with the official TypeScript SDK's client speaking to the
 * suite's server itself ({@code client.mjs direct}), once with the same SDK client speaking
 * stdio to stretto-proxy --upstream in front of it ({@code client.mjs proxy}), the proxy
 * signing in. Every scenario the SDK client passes direct must pass through the proxy; the
 * table of both goes to {@code target/conformance/summary.md}.
 *
 * <p>A scenario passes as the suite's own summary counts it: no check failed and none warned.
 * Each mode is one run of the whole suite, every scenario at once (the suite's {@code --suite
 * all}); a scenario not passed there is run again on its own, at most twice, the same in both
 * modes: load can make a client late ({@code sse-retry} measures its reconnection delay to 50
 * ms, elicitation answers have a deadline), never early. The summary says which passed only
 * alone.
 */
class ConformanceIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the proxy does not pass, and why (docs/oauth.md says the same). */
    static final Map<String, String> NOT_PASSED = Map.of(
            "auth/cross-app-access-complete-flow", "an extension (SEP-990) that exchanges an enterprise IdP's ID token"
                    + " for an authorization grant; neither the proxy nor the SDK's client has it");

    private static final String TIMING = "sse-retry";

    /** How often a scenario not passed among the others is run again alone, at most. */
    private static final int RUNS_ALONE = 2;

    /**
     * @param alone 0 when it passed among all the others, else the run alone it passed in
     */
    record Outcome(String scenario, String mode, boolean passed, List<String> problems, int alone) {

        Outcome(String scenario, String mode, boolean passed, List<String> problems) {
            this(scenario, mode, passed, problems, 0);
        }

        Outcome aloneOnTry(int run) {
            return new Outcome(scenario, mode, passed, problems, run);
        }
    }

    private static boolean passed(Outcome o) {
        return o != null && o.passed();
    }

    @Test
    void everyScenarioTheSdkClientPassesDirectPassesThroughTheProxy() throws Exception {
        Path root = Repo.root();
        ConformanceSuite installed = ConformanceSuite.installed();
        Path node = installed.node();
        Path suite = installed.suite();
        Path out = ConformanceSuite.freshOutput("conformance");

        List<String> scenarios = scenarios(node, suite);
        assertTrue(scenarios.size() >= 20 && scenarios.contains(TIMING), "the suite's client scenarios: " + scenarios);

        Map<String, Outcome> direct = new LinkedHashMap<>();
        Map<String, Outcome> proxied = new LinkedHashMap<>();
        for (String mode : List.of("direct", "proxy")) {
            Map<String, Outcome> results = mode.equals("direct") ? direct : proxied;
            results.putAll(run(node, suite, root, out.resolve(mode), mode, "--suite", "all"));
            // A scenario not passed among all the others is run again alone, at most twice: on a
            // busy machine (two cores, another build beside) a client can answer late, or
            // reconnect late (sse-retry measures that to 50 ms), but never early.
            for (String s : scenarios) {
                for (int again = 1; again <= RUNS_ALONE && !passed(results.get(s)); again++) {
                    Path dir = out.resolve(mode + "-alone").resolve(again + "-" + s.replace('/', '-'));
                    Outcome alone = run(node, suite, root, dir, mode, "--scenario", s).get(s);
                    if (alone != null) {
                        results.put(s, alone.passed() ? alone.aloneOnTry(again) : alone);
                    }
                }
                results.putIfAbsent(s, new Outcome(s, mode, false, List.of("no checks.json (see " + out + ")")));
            }
        }

        String summary = summary(scenarios, direct, proxied);
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println(summary);

        TreeSet<String> lost = new TreeSet<>();
        TreeSet<String> failedThroughProxy = new TreeSet<>();
        for (String s : scenarios) {
            if (direct.get(s).passed() && !proxied.get(s).passed()) {
                lost.add(s + ": " + proxied.get(s).problems());
            }
            if (!proxied.get(s).passed()) {
                failedThroughProxy.add(s);
            }
        }
        assertEquals(new TreeSet<String>(), lost, "scenarios the SDK client passes direct but not through the proxy;"
                + " see " + out + "\n" + summary);
        assertEquals(new TreeSet<>(NOT_PASSED.keySet()), failedThroughProxy, "the scenarios not passed through the"
                + " proxy are those docs/oauth.md names\n" + summary);
    }

    private static List<String> scenarios(Path node, Path suite) throws Exception {
        try (Proc p = Proc.start(List.of(node.toString(), suite.toString(), "list"))) {
            assertEquals(0, p.waitFor(), p.stderr());
            List<String> out = new ArrayList<>();
            boolean client = false;
            for (String line : new String(p.stdoutBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (line.startsWith("Client scenarios")) {
                    client = true;
                } else if (client && line.startsWith("  - ")) {
                    out.add(line.substring(4).split(" ")[0]);
                } else if (client && !line.isBlank()) {
                    break;
                }
            }
            return out;
        }
    }

    /** A run of the suite in {@code mode} ({@code --scenario NAME} or {@code --suite all}), each scenario's outcome. */
    private static Map<String, Outcome> run(Path node, Path suite, Path root, Path dir, String mode, String... what)
            throws Exception {
        Files.createDirectories(dir);
        String client = node + " " + root.resolve("integration-tests/conformance/client.mjs") + " " + mode;
        List<String> command = new ArrayList<>(List.of(node.toString(), suite.toString(), "client", "--command", client,
                "--timeout", "240000", "-o", dir.toString()));
        command.addAll(List.of(what));
        try (Proc p = Proc.start(command, dir, Map.of("STRETTO_PROXY", Repo.bin("stretto-proxy"),
                "STRETTO_LOG_LEVEL", "warn"))) {
            assertTrue(p.waitFor(420), "the conformance run " + List.of(what) + " (" + mode + ") did not end in 7 minutes");
            Files.write(dir.resolve("suite.out"), p.stdoutBytes());
            Files.writeString(dir.resolve("suite.err"), p.stderr());
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(f -> f.getFileName().toString().equals("checks.json")).sorted().toList();
        }
        for (Path checks : files) {
            // DIR/<scenario>-<ISO time with - for : and .>/checks.json; a scenario's name may hold '/'.
            String scenario = dir.relativize(checks.getParent()).toString()
                    .replaceFirst("-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$", "");
            List<String> problems = new ArrayList<>();
            JsonNode all = JSON.readTree(checks.toFile());
            for (JsonNode c : all) {
                String status = c.path("status").asText();
                if (status.equals("FAILURE") || status.equals("WARNING")) {
                    problems.add(status + " " + c.path("id").asText() + ": "
                            + c.path("errorMessage").asText(c.path("description").asText()));
                }
            }
            outcomes.put(scenario, new Outcome(scenario, mode, all.size() > 0 && problems.isEmpty(), problems));
        }
        return outcomes;
    }

    private static String summary(List<String> scenarios, Map<String, Outcome> direct, Map<String, Outcome> proxied) {
        long d = scenarios.stream().filter(s -> direct.get(s).passed()).count();
        long p = scenarios.stream().filter(s -> proxied.get(s).passed()).count();
        StringBuilder s = new StringBuilder("# MCP conformance, client scenarios\n\n")
                .append("SDK client direct: ").append(d).append(" of ").append(scenarios.size())
                .append(" passed; through stretto-proxy: ").append(p).append(" of ").append(scenarios.size())
                .append(" passed.\n\n| scenario | SDK direct | through the proxy |\n| --- | --- | --- |\n");
        for (String sc : scenarios) {
            s.append("| ").append(sc).append(" | ").append(cell(direct.get(sc))).append(" | ")
                    .append(cell(proxied.get(sc))).append(" |\n");
        }
        return s.toString();
    }

    private static String cell(Outcome o) {
        if (o.passed()) {
            return o.alone() == 0 ? "passed" : "passed (run alone, try " + o.alone() + ")";
        }
        return "not passed: " + String.join("; ", o.problems()).replace("|", "/");
    }

}
