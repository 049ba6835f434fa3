package dev.stretto.examples.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java a harness author pastes from the README's library section (and from the embedding
 * section of docs/active-mode.md) compiles against the API on the module path. Each block is
 * a fragment: it becomes the body of a method of its own, whose class declares the names the
 * blocks take as given (the agent's streams, a server, an API key).
 */
class ReadmeSnippetsTest {

    private static final List<String> GIVEN_IMPORTS = List.of("import dev.stretto.proxy.*;", "import java.io.*;",
            "import java.nio.file.Path;");

    private static final String GIVEN = """
                interface MyServer { void serve(InputStream in, OutputStream out) throws IOException; }
                String apiKey;
                InputStream fromAgent;
                OutputStream toAgent;
                UpstreamSpec server;
                MyServer myServer;
            """;

    @Test
    void theLibrarySectionsJavaCompilesOnTheModulePath(@TempDir Path tmp) throws Exception {
        Path root = repositoryRoot();
        List<String> blocks = new ArrayList<>(javaBlocks(section(root.resolve("README.md"),
                "## Using proxy-core as a library")));
        assertTrue(blocks.size() >= 4, "the library section's Java blocks: " + blocks.size());
        List<String> embedding = javaBlocks(section(root.resolve("docs/active-mode.md"), "## Embedding"));
        assertEquals(1, embedding.size(), "docs/active-mode.md's embedding block");
        blocks.addAll(embedding);

        Set<String> imports = new LinkedHashSet<>(GIVEN_IMPORTS);
        StringBuilder methods = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            methods.append("    void block").append(i + 1).append("() throws Exception {\n");
            for (String line : blocks.get(i).lines().toList()) {
                if (line.startsWith("import ")) {
                    imports.add(line);
                } else {
                    methods.append("        ").append(line).append('\n');
                }
            }
            methods.append("    }\n");
        }
        Path src = tmp.resolve("src");
        Files.createDirectories(src.resolve("h"));
        Files.writeString(src.resolve("module-info.java"), "module h { requires dev.stretto.proxy; }");
        Files.writeString(src.resolve("h/Snippets.java"), "package h;\n" + String.join("\n", imports)
                + "\nclass Snippets {\n" + GIVEN + methods + "}\n");
        assertEquals("", HarnessExampleTest.compile(HarnessExampleTest.modulePath(), tmp, src.resolve("module-info.java"),
                src.resolve("h/Snippets.java")), Files.readString(src.resolve("h/Snippets.java")));
    }

    /** The text of the section that starts with {@code heading}, up to the next heading of its level. */
    private static String section(Path file, String heading) throws IOException {
        String text = Files.readString(file);
        int start = text.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, file + " has no section " + heading);
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = text.indexOf("\n" + level, start + heading.length() + 1);
        return end < 0 ? text.substring(start) : text.substring(start, end);
    }

    private static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        int at = 0;
        while ((at = markdown.indexOf("```java\n", at)) >= 0) {
            int body = at + "```java\n".length();
            int end = markdown.indexOf("\n```", body);
            blocks.add(markdown.substring(body, end + 1));
            at = end + 4;
        }
        return blocks;
    }

    /** The checkout: the directory above this module's that holds testdata/reference. */
    private static Path repositoryRoot() {
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("testdata/reference")) && Files.isRegularFile(p.resolve("README.md"))) {
                return p;
            }
        }
        throw new IllegalStateException("no checkout (testdata/reference) above " + System.getProperty("user.dir"));
    }
}
