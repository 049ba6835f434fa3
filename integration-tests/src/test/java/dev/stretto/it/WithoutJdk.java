package dev.stretto.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A command run where no JDK, no Maven and no network can be found: in a mount and network
 * namespace of its own ({@code unshare}), with an empty tmpfs over {@code /usr/lib/jvm} and
 * over the home of every {@code java} and {@code mvn} on this test's PATH, no network but a
 * loopback that is down, and only {@code PATH=/usr/bin:/bin} and {@code HOME} in its
 * environment. Before the command runs, the namespace is checked: a {@code java} or {@code mvn}
 * still found, or a JDK left in {@code /usr/lib/jvm}, fails the run with {@link #NOT_HIDDEN}.
 */
final class WithoutJdk {

    /** The exit status when something the namespace should hide can still be found. */
    static final int NOT_HIDDEN = 97;

    private WithoutJdk() {
    }

    /** {@code command} wrapped so that it runs without a JDK, a Maven or a network. */
    static List<String> command(List<String> command, Path home) throws IOException, InterruptedException {
        Set<Path> hidden = new LinkedHashSet<>();
        hidden.add(Path.of("/usr/lib/jvm"));
        for (String tool : List.of("java", "mvn")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path found = dir.isEmpty() ? null : Path.of(dir, tool);
                if (found != null && Files.isExecutable(found)) {
                    // bin/java -> the JDK's home; bin/mvn -> Maven's home.
                    Path toolHome = found.toRealPath().getParent().getParent();
                    if (toolHome != null && !toolHome.equals(Path.of("/")) && !toolHome.equals(Path.of("/usr"))) {
                        hidden.add(toolHome);
                    }
                }
            }
        }
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isEmpty()) {
            hidden.add(Path.of(javaHome).toRealPath());
        }
        StringBuilder script = new StringBuilder("set -e\n");
        List<Path> mounted = new ArrayList<>();
        for (Path dir : hidden) {
            // A JDK inside /usr/lib/jvm is gone with it.
            if (Files.isDirectory(dir) && mounted.stream().noneMatch(dir::startsWith)) {
                mounted.add(dir);
                script.append("mount -t tmpfs none '").append(dir).append("'\n");
            }
        }
        script.append("set +e\n")
                .append("if command -v java >/dev/null 2>&1 || command -v mvn >/dev/null 2>&1")
                .append(" || [ -n \"$(ls -A /usr/lib/jvm 2>/dev/null)\" ]; then\n")
                .append("  echo 'a JDK or Maven can still be found' >&2; exit ").append(NOT_HIDDEN).append("\nfi\n")
                .append("exec \"$@\"\n");
        List<String> out = new ArrayList<>(List.of("unshare"));
        // As root the namespaces are made directly; otherwise in a user namespace of one's own.
        if (!isRoot()) {
            out.add("--map-root-user");
        }
        out.addAll(List.of("--mount", "--net", "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=" + home,
                "/bin/sh", "-c", script.toString(), "without-jdk"));
        out.addAll(command);
        return out;
    }

    private static boolean isRoot() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        id.waitFor(Proc.WAIT_SECONDS, TimeUnit.SECONDS);
        return uid.equals("0");
    }
}
