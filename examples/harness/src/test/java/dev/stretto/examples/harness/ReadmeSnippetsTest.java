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
 * The Java a harness author pastes from the README's library section, from docs/library.md and
 * from the embedding section of docs/active-mode.md compiles against the API on the module path; the judge's
 * example, which needs the internal types, compiles on the class path, and on the module path
 * fails as the documents say. Each block is
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
        List<String> readme = javaBlocks(section(root.resolve("README.md"), "## Using proxy-core as a library"));
        assertTrue(readme.size() >= 1, "the README's library section has Java to paste");
        assertTrue(readme.stream().noneMatch(ReadmeSnippetsTest::usesInternalPackages), "the README's library section"
                + " shows the exported API only");
        List<String> library = javaBlocks(Files.readString(root.resolve("docs/library.md")));
        assertTrue(library.size() >= 4, "docs/library.md's Java blocks: " + library.size());
        assertTrue(library.stream().noneMatch(ReadmeSnippetsTest::usesInternalPackages), "docs/library.md shows the"
                + " exported API only");
        List<String> blocks = new ArrayList<>(readme);
        blocks.addAll(library);
        blocks.add(embeddingBlocks(root).getFirst());
        Path src = snippets(tmp, blocks, true);
        assertEquals("", HarnessExampleTest.compile(HarnessExampleTest.modulePath(), tmp, src.resolve("module-info.java"),
                src.resolve("h/Snippets.java")), Files.readString(src.resolve("h/Snippets.java")));
    }

    @Test
    void theJudgeExampleCompilesOnTheClassPathAndNotOnTheModulePath(@TempDir Path tmp) throws Exception {
        String judge = embeddingBlocks(repositoryRoot()).getLast();
        assertTrue(usesInternalPackages(judge), judge);

        Path src = snippets(tmp.resolve("classpath"), List.of(judge), false);
        assertEquals("", HarnessExampleTest.compile(List.of("--class-path", HarnessExampleTest.modulePath()),
                tmp.resolve("classpath"), src.resolve("h/Snippets.java")), Files.readString(src.resolve("h/Snippets.java")));

        Path modular = snippets(tmp.resolve("modulepath"), List.of(judge), true);
        String errors = HarnessExampleTest.compile(HarnessExampleTest.modulePath(), tmp.resolve("modulepath"),
                modular.resolve("module-info.java"), modular.resolve("h/Snippets.java"));
        assertTrue(errors.contains("error: package dev.stretto.proxy.active is not visible"), errors);
    }

    /** docs/active-mode.md's embedding blocks: with ActiveSettings, then the judge with the internal types. */
    private static List<String> embeddingBlocks(Path root) throws IOException {
        List<String> embedding = javaBlocks(section(root.resolve("docs/active-mode.md"), "## Embedding"));
        assertEquals(2, embedding.size(), "docs/active-mode.md's embedding blocks");
        assertTrue(!usesInternalPackages(embedding.getFirst()), embedding.getFirst());
        return embedding;
    }

    private static boolean usesInternalPackages(String block) {
        return block.lines().anyMatch(l -> l.matches("import dev\\.stretto\\.proxy\\.[a-z]+.*"));
    }

    /** Writes the blocks as methods of one class, in a module {@code h} when {@code modular}; the source root. */
    private static Path snippets(Path tmp, List<String> blocks, boolean modular) throws IOException {
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
        if (modular) {
            Files.writeString(src.resolve("module-info.java"), "module h { requires dev.stretto.proxy; }");
        }
        Files.writeString(src.resolve("h/Snippets.java"), "package h;\n" + String.join("\n", imports)
                + "\nclass Snippets {\n" + GIVEN + methods + "}\n");
        return src;
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
    static Path repositoryRoot() {
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("testdata/reference")) && Files.isRegularFile(p.resolve("README.md"))) {
                return p;
            }
        }
        throw new IllegalStateException("no checkout (testdata/reference) above " + System.getProperty("user.dir"));
    }
}
