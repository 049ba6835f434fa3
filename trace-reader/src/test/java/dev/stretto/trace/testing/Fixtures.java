package dev.stretto.trace.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the reference implementation's files in the repository's own test data,
 * {@code testdata/reference/} at the top of the checkout (see {@code testdata/README.md}):
 * the first ancestor of the module's directory that holds it. Nothing outside the checkout is
 * read.
 */
public final class Fixtures {

    private Fixtures() {
    }

    /** The fixtures directory; fails the test run loudly when it cannot be found. */
    public static Path root() {
        Path moduleDir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = moduleDir; d != null; d = d.getParent()) {
            Path candidate = d.resolve("testdata/reference");
            if (Files.isDirectory(candidate.resolve("home"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("the test data is missing: expected testdata/reference/ at the top of the"
                + " checkout, above " + moduleDir);
    }

    /** A file under the fixtures directory. */
    public static Path file(String relative) {
        Path p = root().resolve(relative);
        if (!Files.exists(p)) {
            throw new IllegalStateException("fixture missing: " + p);
        }
        return p;
    }

    /** Every session log under home/, sorted. */
    public static List<Path> homeLogs() throws IOException {
        try (Stream<Path> s = Files.walk(root().resolve("home"))) {
            List<Path> logs = s.filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".flow.jsonl"))
                    .sorted().toList();
            if (logs.size() != 8) {
                throw new IllegalStateException("expected the 8 session logs under " + root().resolve("home")
                        + ", found " + logs);
            }
            return logs;
        }
    }
}
