package dev.stretto.proxy.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the reference's files in the repository's test data, {@code testdata/reference/} at
 * the top of the checkout: the first ancestor of the module's directory that holds it.
 */
public final class ReferenceData {

    private ReferenceData() {
    }

    /** A file under {@code testdata/reference/}; fails the test run loudly when it is missing. */
    public static Path file(String relative) {
        Path moduleDir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = moduleDir; d != null; d = d.getParent()) {
            Path candidate = d.resolve("testdata/reference");
            if (Files.isDirectory(candidate)) {
                Path p = candidate.resolve(relative);
                if (!Files.exists(p)) {
                    throw new IllegalStateException("test data missing: " + p);
                }
                return p;
            }
        }
        throw new IllegalStateException("the test data is missing: expected testdata/reference/ above " + moduleDir);
    }
}
