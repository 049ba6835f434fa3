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
 * from the embedding sections of docs/active-mode.md and docs/flows.md compiles against the API
 * on the module path, and imports nothing of the packages proxy-core does not export. Each block
 * is a fragment: it becomes the body of a method of its own, whose class declares the names the
 * blocks take as given (the agent's streams, a server, an API key, the conversations).
 */
class ReadmeSnippetsTest {

    private static final List<String> GIVEN_IMPORTS = List.of("import dev.stretto.proxy.*;", "import java.io.*;",
            "import java.nio.file.Path;", "import java.util.List;");

    /** The packages proxy-core exports; every other {@code dev.stretto.proxy.*} package is internal. */
    private static final Set<String> EXPORTED = Set.of("dev.stretto.proxy", "dev.stretto.proxy.flow",
            "dev.stretto.proxy.share");

    private static final String GIVEN = """
                interface MyServer { void serve(InputStream in, OutputStream out) throws IOException; }
                record Conversation(InputStream fromAgent, OutputStream toAgent) { }
                List<Conversation> conversations;
                String apiKey;
                InputStream fromAgent;
                OutputStream toAgent;
                UpstreamSpec server;
                MyServer myServer;
            """;

    @Test
    void theLibrarySectionsJavaCompilesOnTheModulePath(@TempDir Path tmp) throws Exception {
        Path root = repositoryRoot();
        List<String> readme = readmeLibraryBlocks(root);
        assertTrue(readme.size() >= 2, "the README's library section has a session and the loop to paste: "
                + readme.size());
        List<String> library = javaBlocks(Files.readString(root.resolve("docs/library.md")));
        assertTrue(library.size() >= 6, "docs/library.md's Java blocks: " + library.size());
        List<String> embedding = javaBlocks(section(root.resolve("docs/active-mode.md"), "## Embedding"));
        assertEquals(2, embedding.size(), "docs/active-mode.md's embedding blocks");
        List<String> flows = javaBlocks(section(root.resolve("docs/flows.md"), "### Embedding"));
        assertEquals(1, flows.size(), "docs/flows.md's embedding block");
        List<String> blocks = new ArrayList<>(readme);
        blocks.addAll(library);
        blocks.addAll(embedding);
        blocks.addAll(flows);
        for (String block : blocks) {
            assertEquals(List.of(), internalImports(block), block);
        }
        Path src = snippets(tmp, blocks, true);
        assertEquals("", HarnessExampleTest.compile(HarnessExampleTest.modulePath(), tmp, src.resolve("module-info.java"),
                src.resolve("h/Snippets.java")), Files.readString(src.resolve("h/Snippets.java")));
    }

    @Test
    void anImportOfAnInternalPackageIsFound() {
        assertEquals(List.of("dev.stretto.proxy.active"), internalImports("""
                import dev.stretto.proxy.*;
                import dev.stretto.proxy.flow.FlowFiles;
                import dev.stretto.proxy.share.*;
                import dev.stretto.proxy.active.ActiveMode;
                import dev.stretto.trace.log.SessionLog;
                """));
        assertEquals(List.of("dev.stretto.proxy.flow.model"), internalImports("import dev.stretto.proxy.flow.model.*;"));
    }

    /** The README's library section's Java blocks. */
    static List<String> readmeLibraryBlocks(Path root) throws IOException {
        return javaBlocks(section(root.resolve("README.md"), "## Using proxy-core as a library"));
    }

    /** The packages of proxy-core's a block imports that the module does not export. */
    private static List<String> internalImports(String block) {
        List<String> internal = new ArrayList<>();
        for (String line : block.lines().toList()) {
            if (line.startsWith("import dev.stretto.proxy.")) {
                List<String> parts = new ArrayList<>();
                for (String part : line.substring("import ".length(), line.indexOf(';')).split("\\.")) {
                    if (part.equals("*") || Character.isUpperCase(part.charAt(0))) {
                        break;
                    }
                    parts.add(part);
                }
                String pkg = String.join(".", parts);
                if (!EXPORTED.contains(pkg)) {
                    internal.add(pkg);
                }
            }
        }
        return internal;
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
