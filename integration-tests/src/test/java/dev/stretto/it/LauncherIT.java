package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The launchers as an MCP host starts them: no shell, any directory, a symlink, a bare PATH. */
class LauncherIT {

    @TempDir
    Path tmp;

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @Test
    void proxyRunsThroughASymlinkFromAnotherDirectoryWithAMinimalPath() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("my-proxy"), Path.of(Repo.bin("stretto-proxy")));
        Path demoLink = Files.createSymbolicLink(tmp.resolve("my-demo"), Path.of(Repo.bin("stretto-mcp-demo")));
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin");
        try (Proc p = Proc.start(List.of(link.toString(), "--", demoLink.toString()), tmp, env)) {
            p.send(PING);
            assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}", p.nextLine());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
    }

    @Test
    void theServerSeesTheJavaHomeTheHostGaveNotTheOneTheLauncherChose() throws Exception {
        // A Java MCP server started through the proxy must run on the JDK its user configured,
        // even when that one is too old for the proxy itself.
        Path oldJdk = Files.createDirectories(tmp.resolve("jdk-17"));
        String show = "printf '%s\\n' \"${JAVA_HOME-unset}\"";
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "sh", "-c", show), tmp,
                Map.of("JAVA_HOME", oldJdk.toString()))) {
            p.closeStdin();
            assertEquals(oldJdk.toString(), p.nextLine(), p.stderr());
            assertEquals(0, p.waitFor(), p.stderr());
        }
    }

    /**
     * Issue 7: the launchers appended /usr/local/bin:/usr/bin:/bin to PATH (twice), and the
     * server inherited that. It must get the host's environment as it was, PATH unset too.
     * The additions are PWD, the working directory: every POSIX shell, so the launchers'
     * /bin/sh, sets it on start, and cannot tell whether it was given; and the server's mark,
     * STRETTO_SERVER_TREE, by which the proxy knows the processes the server leaves behind.
     */
    @Test
    void theServerSeesTheHostsEnvironmentUnchanged() throws Exception {
        Map<String, String> withPath = Map.of("PATH", tmp + ":/usr/bin:/bin", "HOME", tmp.toString(),
                "STRETTO_TEST_VALUE", "a b=c");
        Map<String, String> withoutPath = Map.of("HOME", tmp.toString(), "STRETTO_TEST_VALUE", "a b=c");
        for (Map<String, String> env : List.of(withPath, withoutPath)) {
            try (Proc p = Proc.startWithOnly(List.of(Repo.bin("stretto-proxy"), "--", "/usr/bin/env"), tmp, env)) {
                p.closeStdin();
                assertEquals(0, p.waitFor(), p.stderr());
                Map<String, String> seen = new TreeMap<>();
                for (String line : new String(p.stdoutBytes(), StandardCharsets.UTF_8).lines().toList()) {
                    seen.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
                }
                String mark = seen.remove("STRETTO_SERVER_TREE");
                assertTrue(mark != null && mark.matches("\\d+\\.[0-9a-z]+\\.1"), "the mark: " + mark);
                Map<String, String> expected = new TreeMap<>(env);
                expected.put("PWD", tmp.toString());
                assertEquals(expected, seen);
            }
        }
    }

    /** Issue 7: bench printed Java's usage, try said "--record needs a value", test Maven's. */
    @ParameterizedTest
    @ValueSource(strings = {"stretto-proxy", "stretto", "stretto-mcp-demo", "try",
            "test", "bench", "dist", "install"})
    void everyCommandInBinAnswersHelpItself(String command) throws Exception {
        for (String flag : List.of("--help", "-h")) {
            try (Proc p = Proc.start(List.of(Repo.bin(command), flag), tmp, Map.of())) {
                assertEquals(0, p.waitFor(), p.stderr());
                String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
                String name = command.startsWith("stretto") ? command : "bin/" + command;
                assertTrue(out.startsWith("Usage: " + name) || out.startsWith(name + " "), out);
                assertEquals("", p.stderr());
            }
        }
    }

    /** Each help says how the command exits. */
    @ParameterizedTest
    @ValueSource(strings = {"stretto-proxy", "stretto", "stretto-mcp-demo", "try", "test", "bench", "dist", "install"})
    void everyCommandsHelpStatesItsExitStatus(String command) throws Exception {
        try (Proc p = Proc.start(List.of(Repo.bin(command), "--help"), tmp, Map.of())) {
            assertEquals(0, p.waitFor(), p.stderr());
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("Exit status"), out);
        }
    }

    /**
     * bin/bench passed any argument to java: {@code --rounds 3} got the JVM's "Unrecognized
     * option", {@code -Drounds=abc} and {@code -Dpart=bogus} ran the defaults without a word.
     * Its options are checked before a JVM starts.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-Drounds=3|unknown argument '-Drounds=3'",
            "--rounds abc|--rounds takes a whole number from 1, not 'abc'",
            "--calls 0|--calls takes a whole number from 1, not '0'",
            "--only startup,bogus|--only takes some of startup,parallel,kib,mib,big,flow,policy,learn,injvm,console,listen,tau2, not 'bogus'",
            "--against /nonexistent|--against /nonexistent: no bin/stretto-proxy there (give a checkout's directory)",
            "--pings|--pings needs a value"})
    void binBenchRefusesAnArgumentItDoesNotTakeWithAUsageError(String arguments, String message) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Repo.bin("bench"), "--rounds", "1"));
        command.addAll(List.of(arguments.split(" ")));
        try (Proc p = Proc.start(command, tmp, Map.of())) {
            assertEquals(2, p.waitFor(), p.stderr());
            assertEquals("bin/bench: " + message + " (see bin/bench --help)\n", p.stderr());
            assertEquals(0, p.stdoutBytes().length);
        }
    }

    /** bin/test's help named integration-tests/npm/, which does not exist. */
    @Test
    void binTestsHelpNamesTheDirectoriesThatPinItsNpmPackages() throws Exception {
        try (Proc p = Proc.start(List.of(Repo.bin("test"), "--help"), tmp, Map.of())) {
            assertEquals(0, p.waitFor(), p.stderr());
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            java.util.regex.Matcher dirs = java.util.regex.Pattern.compile("integration-tests/[\\w-]+/").matcher(out);
            List<String> named = new java.util.ArrayList<>();
            while (dirs.find()) {
                named.add(dirs.group());
            }
            assertEquals(List.of("integration-tests/reference-server/", "integration-tests/ts-host/",
                    "integration-tests/conformance/"), named, out);
            for (String dir : named) {
                assertTrue(Files.isRegularFile(Repo.root().resolve(dir).resolve("package-lock.json")), dir);
            }
        }
    }

    /** Issue 7: bin/test's output held ANSI codes, which Maven writes even in batch mode. */
    @Test
    void binTestWritesNoColourCodesAndKeepsMavensStatus() throws Exception {
        // --version makes Maven print its banner and stop: the cheapest run that shows the codes.
        try (Proc p = Proc.start(List.of(Repo.bin("test"), "--version"), tmp, Map.of())) {
            assertEquals(0, p.waitFor(), p.stderr());
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.startsWith("Apache Maven "), out);
            assertTrue(out.indexOf('\u001b') < 0 && p.stderr().indexOf('\u001b') < 0, out + p.stderr());
        }
        try (Proc p = Proc.start(List.of(Repo.bin("test"), "--no-such-maven-option"), tmp, Map.of())) {
            assertEquals(1, p.waitFor(), "Maven's status: " + p.stderr());
        }
    }

    @Test
    void aRelativeRecordDirectoryIsNamedInFullSinceTheHostsDirectoryIsUnknown() throws Exception {
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--record", "logs", "--", "cat"), tmp, Map.of())) {
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            String first = p.stderr().lines().findFirst().orElse("");
            String prefix = "stretto-proxy: recording to " + tmp.toRealPath().resolve("logs") + "/";
            assertTrue(first.startsWith(prefix) && first.endsWith(".jsonl"), first);
            assertTrue(Files.isRegularFile(Path.of(first.substring("stretto-proxy: recording to ".length()))), first);
        }
    }

    @Test
    void aCheckoutWhosePathHasSpacesRunsWithItsStartUpCache() throws Exception {
        // macOS home folders often have spaces in their names; the cache's path must reach the
        // JVM as one argument.
        Path copy = tmp.resolve("my projects/stretto proxy");
        for (String part : List.of("bin/stretto-proxy", "bin/stretto-mcp-demo", "bin/lib/launch", "bin/lib/launcher.sh",
                "proxy-cli/target/proxy-cli.jar", "proxy-cli/target/lib", "mcp-demo/target/mcp-demo.jar",
                "mcp-demo/target/lib")) {
            copyTree(Repo.root().resolve(part), copy.resolve(part));
        }
        String proxy = copy.resolve("bin/stretto-proxy").toString();
        String demo = copy.resolve("bin/stretto-mcp-demo").toString();
        for (int run = 0; run < 2; run++) { // the first trains the caches, the second only uses them
            try (Proc p = Proc.start(List.of(proxy, "--", demo), tmp, Map.of())) {
                p.send(PING);
                assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}", p.nextLine());
                p.closeStdin();
                assertEquals(0, p.waitFor(), p.stderr());
                assertEquals("", p.stderr());
            }
        }
        assertTrue(Files.isRegularFile(copy.resolve("proxy-cli/target/aot/stretto-proxy.aot")));
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        Files.createDirectories(to.getParent());
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            return;
        }
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                copyTree(f, to.resolve(f.getFileName().toString()));
            }
        }
    }

    @Test
    void withoutAJdk25TheLauncherSaysSoAndExits125() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("PATH", "/usr/bin:/bin", "STRETTO_JVM_DIRS", tmp.toString()));
        env.put("JAVA_HOME", tmp.toString());
        ProcessBuilder pb = new ProcessBuilder(Repo.bin("stretto-proxy"), "--", "cat");
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(Proc.WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(125, p.exitValue(), err);
        assertEquals(1, err.lines().count(), "one clear line: " + err);
        assertTrue(err.contains("JDK 25"), err);
        assertEquals(0, p.getInputStream().readAllBytes().length, "nothing on stdout");
    }

    @Test
    void afterABuildTheTryItSessionWaitsForNoCacheTraining() throws Exception {
        // As after a fresh build: no start-up caches yet. Training them must not happen while
        // the proxy runs, or the demo would start after the host's input closed.
        deleteStartUpCaches();
        try (Proc p = Proc.start(List.of(Repo.bin("try"), tmp.resolve("logs").toString()))) {
            assertEquals(0, p.waitFor(), p.stderr());
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertEquals(4, out.lines().filter(l -> l.startsWith("{\"id\":")).count(), out);
        }
        assertTrue(Files.isRegularFile(Repo.root().resolve("proxy-cli/target/aot/stretto-proxy.aot")));
        assertTrue(Files.isRegularFile(Repo.root().resolve("mcp-demo/target/aot/stretto-mcp-demo.aot")));
    }

    @Test
    void aLauncherToldToStopWhileItTrainsItsCacheStopsAndLeavesNoLockBehind() throws Exception {
        // A host may give up on a proxy that starts slowly and send it SIGTERM. The build lock
        // must not outlive the launcher: a stale one makes every later launcher skip training,
        // and one that finds the jars missing wait ten minutes for it.
        deleteStartUpCaches();
        Path lock = Repo.root().resolve(".stretto-launch.lock");
        Path scratch = Files.createDirectories(tmp.resolve("tmp"));
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "cat"), null,
                Map.of("TMPDIR", scratch.toString()))) {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Proc.WAIT_SECONDS);
            while (!Files.isSymbolicLink(lock)) {
                assertTrue(p.process().isAlive(), "the launcher ended before training: " + p.stderr());
                assertTrue(System.nanoTime() < deadline, "the launcher never took the lock to train");
                Thread.sleep(5);
            }
            p.process().destroy();
            assertEquals(143, p.waitFor(), "the launcher went on after SIGTERM: " + p.stderr());
            assertTrue(p.stdoutBytes().length == 0, "nothing on stdout");
        }
        assertTrue(!Files.exists(lock, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the lock " + lock
                + " was left behind");
        try (var left = Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "the training's scratch files were left behind");
        }
    }

    @Test
    void aLockLeftByALauncherThatIsGoneIsTakenOver() throws Exception {
        // A launcher killed with SIGKILL cannot remove its lock; the next one must not wait for
        // it (or skip training for ever).
        deleteStartUpCaches();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path lock = Files.createSymbolicLink(Repo.root().resolve(".stretto-launch.lock"),
                Path.of(Long.toString(gone.pid())));
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "cat"))) {
            p.send(PING);
            assertEquals(PING, p.nextLine());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        } finally {
            Files.deleteIfExists(lock);
        }
        assertTrue(Files.isRegularFile(Repo.root().resolve("proxy-cli/target/aot/stretto-proxy.aot")),
                "the stale lock stopped the training");
        assertTrue(Files.isRegularFile(Repo.root().resolve("mcp-demo/target/aot/stretto-mcp-demo.aot")));
    }

    private static void deleteStartUpCaches() throws java.io.IOException {
        for (String module : List.of("proxy-cli", "mcp-demo")) {
            Path aot = Repo.root().resolve(module).resolve("target/aot");
            if (Files.isDirectory(aot)) {
                try (var files = Files.list(aot)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
            }
        }
    }
}
