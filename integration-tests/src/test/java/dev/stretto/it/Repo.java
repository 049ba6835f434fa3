package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
     * The first shell block after a heading of a page of docs/, as a user pastes it.
     *
     * @param page    the page's file name in docs/
     * @param heading the heading line, with its {@code #}s
     */
    static String docsShellBlock(String page, String heading) throws IOException {
        String text = Files.readString(root().resolve("docs").resolve(page), StandardCharsets.UTF_8);
        int at = text.indexOf("\n" + heading + "\n");
        assertTrue(at >= 0, "docs/" + page + " has the section " + heading);
        int start = text.indexOf("```sh\n", at) + "```sh\n".length();
        return text.substring(start, text.indexOf("\n```", start) + 1);
    }
}
