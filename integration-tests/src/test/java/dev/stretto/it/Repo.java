package dev.stretto.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository and its launchers are, as seen from a test run by Failsafe. */
final class Repo {

    private Repo() {
    }

    static Path root() {
        String prop = System.getProperty("stretto.root");
        Path root = (prop != null ? Path.of(prop) : Path.of("..")).toAbsolutePath().normalize();
        if (!Files.isExecutable(root.resolve("bin/stretto-proxy"))) {
            throw new IllegalStateException("no bin/stretto-proxy under " + root + " (set -Dstretto.root)");
        }
        return root;
    }

    static String bin(String name) {
        return root().resolve("bin").resolve(name).toString();
    }
}
