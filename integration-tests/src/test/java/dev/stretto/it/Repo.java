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

    /**
     * shared/ lies beside the repository, on developers' machines and in CI alike; for a git
     * worktree kept in a folder of its own, beside one of its ancestors.
     */
    static Path shared() {
        for (Path dir = root().getParent(); dir != null; dir = dir.getParent()) {
            Path shared = dir.resolve("shared");
            if (Files.isDirectory(shared.resolve("fixtures"))) {
                return shared;
            }
        }
        throw new IllegalStateException("shared/ with fixtures is expected beside the repository (or one of its"
                + " parent folders), above " + root());
    }
}
