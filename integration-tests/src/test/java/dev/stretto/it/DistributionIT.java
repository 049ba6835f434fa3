package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-contained distribution as a new user gets it: bin/dist builds the archive, which
 * is unpacked into an empty directory and run where no JDK, no Maven and no network can be
 * found ({@link WithoutJdk}), through symlinks and with a minimal PATH; its install.sh installs
 * it into a prefix, over an older version too, and removes it again.
 */
class DistributionIT {

    /** How long a build of the archive may take on a busy machine before the test fails. */
    private static final long BUILD_SECONDS = 600;

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    private static final String PONG = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n";

    @TempDir
    static Path shared;

    @TempDir
    Path tmp;

    private static Path archive;
    private static Path tree;
    private static String version;

    /** What a finished process left: its exit status, stdout's bytes and stderr's text. */
    record Result(int status, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    @BeforeAll
    static void buildTheArchiveAndUnpackItIntoAnEmptyDirectory() throws Exception {
        Path out = shared.resolve("out");
        Result dist = run(List.of(Repo.bin("dist"), "--out", out.toString()), "", Map.of(), BUILD_SECONDS);
        assertEquals(0, dist.status(), dist.stderr());
        archive = Path.of(dist.out().strip());
        assertEquals(out.toRealPath(), archive.getParent());
        String name = archive.getFileName().toString();
        assertTrue(name.matches("stretto-[0-9][^/]*-(linux|macos)-(x64|aarch64)\\.tar\\.gz"), name);

        Path unpacked = Files.createDirectory(shared.resolve("unpacked"));
        Result tar = run(List.of("tar", "-xzf", archive.toString(), "-C", unpacked.toString()), "", Map.of(), 120);
        assertEquals(0, tar.status(), tar.stderr());
        try (Stream<Path> top = Files.list(unpacked)) {
            List<Path> dirs = top.toList();
            assertEquals(1, dirs.size(), "one directory at the archive's top: " + dirs);
            tree = dirs.getFirst();
        }
        version = Files.readString(tree.resolve("VERSION")).strip();
        assertEquals("stretto-" + version, tree.getFileName().toString());
        assertTrue(name.startsWith("stretto-" + version + "-"), name);
    }

    @Test
    void theTreeHoldsTheLaunchersTheJarsTheCachesAndARuntimeOfOnlyTheModulesJdepsNames() throws Exception {
        for (String file : List.of("bin/stretto-proxy", "bin/stretto", "bin/stretto-mcp-demo", "bin/lib/launch",
                "install.sh", "runtime/bin/java")) {
            assertTrue(Files.isExecutable(tree.resolve(file)), file);
        }
        for (String file : List.of("bin/lib/launcher.sh", "lib/proxy-cli.jar", "lib/mcp-demo.jar",
                "lib/proxy-cli.classpath", "lib/mcp-demo.classpath", "lib/stretto-proxy.aot",
                "lib/stretto-proxy-active.aot", "lib/stretto-mcp-demo.aot", "docs/install.md", "docs/hosts.md")) {
            assertTrue(Files.isRegularFile(tree.resolve(file)), file);
        }
        // The pages for people to read, and what they link to, as bin/lib/dist-docs names them.
        for (String doc : Files.readAllLines(Repo.root().resolve("bin/lib/dist-docs"))) {
            if (!doc.isBlank() && !doc.startsWith("#")) {
                Path copy = tree.resolve(doc);
                assertTrue(doc.endsWith("/") ? Files.isDirectory(copy) : Files.isRegularFile(copy), doc);
            }
        }
        assertEquals(Files.readString(Repo.root().resolve("docs/http-upstream.md")),
                Files.readString(tree.resolve("docs/http-upstream.md")));
        assertEquals(Files.readString(Repo.root().resolve("examples/policies/read-only.yaml")),
                Files.readString(tree.resolve("examples/policies/read-only.yaml")));

        // The distribution's launcher is not the checkout's: it never builds.
        assertEquals(Files.readString(Repo.root().resolve("bin/lib/launch-dist")),
                Files.readString(tree.resolve("bin/lib/launch")));
        assertFalse(Files.readString(tree.resolve("bin/lib/launch")).contains("mvn"));
        assertEquals(Files.readString(Repo.root().resolve("bin/lib/launcher.sh")),
                Files.readString(tree.resolve("bin/lib/launcher.sh")));

        // The runtime's modules: those jdeps says the jars use, and what they require; but not
        // java.desktop, which jdeps names only for classes the programs never load.
        Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
        List<String> command = new ArrayList<>(List.of(jdeps.toString(), "--multi-release", "25",
                "--ignore-missing-deps", "--print-module-deps"));
        try (Stream<Path> jars = Files.list(tree.resolve("lib"))) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> command.add(p.toString()));
        }
        Result used = run(command, "", Map.of(), 120);
        assertEquals(0, used.status(), used.stderr());
        List<String> named = new ArrayList<>(Arrays.asList(used.out().strip().split(",")));
        assertTrue(named.remove("java.desktop"), "jdeps names java.desktop: " + named);
        Set<String> expected = withWhatTheyRequire(named);
        assertEquals(expected, runtimeModules(), "runtime/release MODULES");
        assertFalse(runtimeModules().contains("java.desktop"), "runtime/release MODULES");
        assertFalse(Files.exists(tree.resolve("runtime/bin/javac")), "no compiler in the runtime");
    }

    @Test
    void aRecordedSessionRunsFromSymlinksWhereNoJdkNoMavenAndNoNetworkCanBeFound() throws Exception {
        Path links = Files.createDirectories(tmp.resolve("links"));
        Path proxy = Files.createSymbolicLink(links.resolve("stretto-proxy"), tree.resolve("bin/stretto-proxy"));
        Path demo = Files.createSymbolicLink(links.resolve("my-demo"), tree.resolve("bin/stretto-mcp-demo"));
        Path stretto = Files.createSymbolicLink(links.resolve("stretto"), tree.resolve("bin/stretto"));
        Path logs = tmp.resolve("logs");
        String input = String.join("\n", TryItSessionIT.TRY_IT_LINES) + "\n";

        Result session = run(WithoutJdk.command(List.of(proxy.toString(), "--record", logs.toString(), "--domain",
                "demo", "--", demo.toString()), tmp), input, Map.of(), 120);
        assertEquals(0, session.status(), session.stderr());

        // stdout carries the protocol and nothing else: byte for byte what the demo writes.
        Result alone = run(List.of(demo.toString()), input, Map.of(), 120);
        assertEquals(0, alone.status(), alone.stderr());
        assertEquals(4, alone.out().lines().count(), alone.out());
        assertEquals(alone.out(), session.out());
        assertTrue(Arrays.equals(alone.stdout(), session.stdout()));

        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals("stretto-proxy: recording to " + log.path() + "\n", session.stderr());
        assertEquals("demo", log.header().get("domain").asText());
        assertEquals(5, log.indexesFrom("client").size(), log.lines().toString());
        for (int i = 0; i < TryItSessionIT.TRY_IT_LINES.size(); i++) {
            assertEquals(TryItSessionIT.TRY_IT_LINES.get(i), log.messageText(log.indexesFrom("client").get(i)));
        }
        List<String> answers = alone.out().lines().toList();
        List<Integer> fromServer = log.indexesFrom("server");
        assertEquals(4, fromServer.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(answers.get(i), log.messageText(fromServer.get(i)));
        }

        // The offline tools run there too.
        Result show = run(WithoutJdk.command(List.of(stretto.toString(), "show", log.path().toString()), tmp), "",
                Map.of(), 120);
        assertEquals(0, show.status(), show.stderr());
        assertTrue(show.out().contains("lookup") && show.out().contains("update"), show.out());
    }

    @Test
    void aYamlPolicyAndAJsonFlowLoadInTheRuntimeWithoutJavaDesktop() throws Exception {
        Path stretto = tree.resolve("bin/stretto");
        Path policy = Files.writeString(tmp.resolve("policy.yaml"), """
                rules:
                  - id: no-secrets
                    tools: [lookup]
                    arguments:
                      /key: {glob: "secret*"}
                    action: deny
                    reason: secrets are not looked up here
                """);
        Result check = run(WithoutJdk.command(List.of(stretto.toString(), "policy", "check", policy.toString()), tmp),
                "", Map.of(), 120);
        assertEquals(0, check.status(), check.stderr() + check.out());

        // The proxy refuses by the YAML policy before the demo sees the call.
        String lookup = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                + "\"arguments\":{\"key\":\"secret-plan\"}}}";
        String input = String.join("\n", TryItSessionIT.TRY_IT_LINES.subList(0, 2)) + "\n" + lookup + "\n";
        Result session = run(WithoutJdk.command(List.of(tree.resolve("bin/stretto-proxy").toString(), "--policy",
                policy.toString(), "--", tree.resolve("bin/stretto-mcp-demo").toString()), tmp), input, Map.of(), 120);
        assertEquals(0, session.status(), session.stderr());
        List<String> answers = session.out().lines().toList();
        assertEquals(2, answers.size(), session.out());
        JsonNode refusal = null;
        for (String answer : answers) {
            JsonNode a = SessionLogFile.JSON.readTree(answer);
            if (a.path("id").asInt() == 3) {
                refusal = a;
            }
        }
        assertTrue(refusal != null && refusal.path("result").path("isError").asBoolean(), session.out());
        assertTrue(refusal.toString().contains("secrets are not looked up here (policy rule no-secrets)"),
                refusal.toString());

        Path flow = Repo.root().resolve("testdata/reference/retail-5-sessions.flow.json");
        Result show = run(WithoutJdk.command(List.of(stretto.toString(), "flow-show", flow.toString()), tmp), "",
                Map.of(), 120);
        assertEquals(0, show.status(), show.stderr());
        assertTrue(show.out().contains("get_order_details"), show.out());
    }

    @Test
    void installShInstallsIntoAPrefixWhereTheInstalledCommandsRunWithoutAJdk() throws Exception {
        Path prefix = tmp.resolve("prefix");
        Result install = run(WithoutJdk.command(List.of(tree.resolve("install.sh").toString(), prefix.toString()), tmp),
                "", Map.of(), 120);
        assertEquals(0, install.status(), install.stderr());
        assertTrue(install.out().startsWith("installed stretto " + version + " in "
                + prefix.resolve("share/stretto/" + version)), install.out());
        assertEquals(Path.of(version), Files.readSymbolicLink(prefix.resolve("share/stretto/current")));
        for (String c : List.of("stretto-proxy", "stretto", "stretto-mcp-demo")) {
            assertEquals(Path.of("../share/stretto/current/bin/" + c), Files.readSymbolicLink(prefix.resolve("bin/" + c)));
        }
        String proxy = prefix.resolve("bin/stretto-proxy").toString();
        Result v = run(WithoutJdk.command(List.of(proxy, "--version"), tmp), "", Map.of(), 120);
        assertEquals(0, v.status(), v.stderr());
        assertEquals("stretto-proxy " + version + "\n", v.out());
        assertEquals("", v.stderr());

        Result session = run(WithoutJdk.command(List.of(proxy, "--", prefix.resolve("bin/stretto-mcp-demo").toString()),
                tmp), PING, Map.of(), 120);
        assertEquals(0, session.status(), session.stderr());
        assertEquals(PONG, session.out());
        assertEquals("", session.stderr());

        // stretto init names the installed stretto-proxy: the link, which outlives upgrades.
        Result init = run(WithoutJdk.command(List.of(prefix.resolve("bin/stretto").toString(), "init", "json", "orders",
                "--", "npx", "-y", "some-mcp-server"), tmp), "", Map.of(), 120);
        assertEquals(0, init.status(), init.stderr());
        JsonNode entry = SessionLogFile.JSON.readTree(init.out()).path("mcpServers").path("orders");
        assertEquals(proxy, entry.path("command").asText(), init.out());
    }

    @Test
    void installingOverAnOlderVersionUpgradesWithoutStoppingItsSessionsAndUninstallRemovesIt() throws Exception {
        Path older = olderTree("0.0.1");
        Path prefix = tmp.resolve("prefix");
        Result first = run(List.of(older.resolve("install.sh").toString(), prefix.toString()), "", Map.of(), 120);
        assertEquals(0, first.status(), first.stderr());
        String proxy = prefix.resolve("bin/stretto-proxy").toString();
        assertEquals("stretto-proxy 0.0.1\n", run(List.of(proxy, "--version"), "", Map.of(), 60).out());

        try (Proc running = Proc.start(List.of(proxy, "--", "cat"))) {
            running.send(PING.strip());
            assertEquals(PING.strip(), running.nextLine());

            Result upgrade = run(List.of(tree.resolve("install.sh").toString(), prefix.toString()), "", Map.of(), 120);
            assertEquals(0, upgrade.status(), upgrade.stderr());
            assertTrue(upgrade.out().startsWith("upgraded stretto from 0.0.1 to " + version), upgrade.out());
            assertEquals("stretto-proxy " + version + "\n", run(List.of(proxy, "--version"), "", Map.of(), 60).out());
            assertEquals(Path.of(version), Files.readSymbolicLink(prefix.resolve("share/stretto/current")));
            assertTrue(Files.isDirectory(prefix.resolve("share/stretto/0.0.1")), "the replaced version is kept");

            // The session that started on 0.0.1 goes on.
            running.send(PING.strip());
            assertEquals(PING.strip(), running.nextLine());
            running.closeStdin();
            assertEquals(0, running.waitFor(), running.stderr());
        }

        // The one before the replaced version goes at the next install.
        Result again = run(List.of(tree.resolve("install.sh").toString(), prefix.toString()), "", Map.of(), 120);
        assertEquals(0, again.status(), again.stderr());
        try (Stream<Path> versions = Files.list(prefix.resolve("share/stretto"))) {
            assertEquals(Set.of("current", version), new TreeSet<>(versions.map(p -> p.getFileName().toString()).toList()));
        }

        Result uninstall = run(List.of(tree.resolve("install.sh").toString(), "--uninstall", prefix.toString()), "",
                Map.of(), 60);
        assertEquals(0, uninstall.status(), uninstall.stderr());
        assertFalse(Files.exists(prefix.resolve("share/stretto")));
        try (Stream<Path> bin = Files.list(prefix.resolve("bin"))) {
            assertEquals(List.of(), bin.toList());
        }
    }

    @Test
    void aFileWhereACommandsLinkWouldGoStopsTheInstallBeforeAnythingChanges() throws Exception {
        Path prefix = tmp.resolve("prefix");
        Path mine = Files.createDirectories(prefix.resolve("bin")).resolve("stretto");
        Files.writeString(mine, "#!/bin/sh\necho mine\n");
        Result install = run(List.of(tree.resolve("install.sh").toString(), prefix.toString()), "", Map.of(), 60);
        assertEquals(1, install.status(), install.out());
        assertEquals("install.sh: " + mine + " is a file, not a link an install made; move it away or choose another"
                + " PREFIX\n", install.stderr());
        assertEquals("#!/bin/sh\necho mine\n", Files.readString(mine));
        assertFalse(Files.exists(prefix.resolve("share")));
        try (Stream<Path> bin = Files.list(prefix.resolve("bin"))) {
            assertEquals(List.of(mine), bin.toList());
        }
    }

    @Test
    void binInstallBuildsTheArchiveFromTheCheckoutAndInstallsIt() throws Exception {
        Path prefix = tmp.resolve("from checkout");
        Result install = run(List.of(Repo.bin("install"), prefix.toString()), "", Map.of(), BUILD_SECONDS);
        assertEquals(0, install.status(), install.stderr());
        assertTrue(install.out().startsWith("installed stretto " + version), install.out());
        Result session = run(WithoutJdk.command(List.of(prefix.resolve("bin/stretto-proxy").toString(), "--",
                prefix.resolve("bin/stretto-mcp-demo").toString()), tmp), PING, Map.of(), 120);
        assertEquals(0, session.status(), session.stderr());
        assertEquals(PONG, session.out());
    }

    /**
     * A copy of the tree that says it is {@code older}: its VERSION, and the version inside
     * proxy-cli.jar that --version prints. Its proxy's start-up cache goes, as it was made for
     * the jar before the change.
     */
    private Path olderTree(String older) throws Exception {
        Path copy = tmp.resolve("older/stretto-" + older);
        Files.createDirectories(copy.getParent());
        Result cp = run(List.of("cp", "-pR", tree.toString(), copy.toString()), "", Map.of(), 60);
        assertEquals(0, cp.status(), cp.stderr());
        Files.writeString(copy.resolve("VERSION"), older + "\n");
        try (FileSystem jar = FileSystems.newFileSystem(copy.resolve("lib/proxy-cli.jar"))) {
            Files.writeString(jar.getPath("dev/stretto/cli/version.properties"), "version=" + older + "\n");
        }
        Files.delete(copy.resolve("lib/stretto-proxy.aot"));
        return copy;
    }

    private static Set<String> runtimeModules() throws IOException {
        for (String line : Files.readAllLines(tree.resolve("runtime/release"))) {
            if (line.startsWith("MODULES=")) {
                return new TreeSet<>(List.of(line.substring("MODULES=\"".length(), line.length() - 1).split(" ")));
            }
        }
        fail("runtime/release has no MODULES line");
        return Set.of();
    }

    /** The modules named and every module they require (static requirements aside). */
    private static Set<String> withWhatTheyRequire(List<String> modules) {
        ModuleFinder system = ModuleFinder.ofSystem();
        Set<String> all = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(modules);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!all.add(name)) {
                continue;
            }
            ModuleDescriptor d = system.find(name).orElseThrow(() -> new AssertionError("no module " + name))
                    .descriptor();
            for (ModuleDescriptor.Requires r : d.requires()) {
                if (!r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
                    todo.push(r.name());
                }
            }
        }
        return all;
    }

    /** Runs {@code command} with {@code stdin}, failing the test if it does not end in time. */
    static Result run(List<String> command, String stdin, Map<String, String> env, long seconds) throws Exception {
        Path dir = Files.createTempDirectory("stretto-dist-it");
        try {
            Path in = Files.writeString(dir.resolve("in"), stdin);
            Path out = dir.resolve("out");
            Path err = dir.resolve("err");
            ProcessBuilder pb = new ProcessBuilder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                fail(command + " did not end within " + seconds + " s; stderr:\n" + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
