package dev.stretto.examples.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link in the README and in docs/ leads somewhere: the file exists, and an
 * anchor ({@code page.md#section}) names a heading of that page, spelled as GitHub spells a
 * heading's anchor; the pages the distribution's archive holds link only to what it holds.
 * Links to other sites are not followed (the tests run offline).
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
    // What GitHub drops from a heading to make its anchor: all but letters, marks, digits,
    // connector punctuation (the underscore), spaces and hyphens.
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]",
            Pattern.UNICODE_CHARACTER_CLASS);

    @Test
    void everyLinkOfTheReadmeAndTheDocsResolves() throws IOException {
        Path root = ReadmeSnippetsTest.repositoryRoot();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertTrue(pages.size() > 10, "the README and the docs pages: " + pages);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            links += brokenLinks(root, page, Files::exists, broken);
        }
        assertTrue(links > 100, "links checked: " + links);
        assertEquals(List.of(), broken);
    }

    /**
     * The pages bin/dist puts into the archive (bin/lib/dist-docs names them) link only to what
     * the archive holds: unpacked, every relative link of theirs leads to a file the list
     * names, or one inside a directory it names.
     */
    @Test
    void everyLinkOfThePagesTheDistributionShipsResolvesInsideTheArchive() throws IOException {
        Path root = ReadmeSnippetsTest.repositoryRoot();
        List<Path> shipped = shipped(root);
        List<Path> pages = shipped.stream().filter(p -> p.toString().endsWith(".md")).toList();
        assertTrue(pages.contains(root.resolve("docs/install.md")) && pages.contains(root.resolve("docs/hosts.md")),
                "bin/lib/dist-docs names install.md and hosts.md: " + pages);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            links += brokenLinks(root, page, to -> shipped.stream().anyMatch(to::startsWith) && Files.exists(to),
                    broken);
        }
        assertTrue(links > 100, "links checked: " + links);
        assertEquals(List.of(), broken);
    }

    @Test
    void aLinkToAFileTheArchiveDoesNotHoldIsFound(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("docs"));
        Files.createDirectories(tmp.resolve("examples/policies"));
        Files.writeString(tmp.resolve("examples/policies/a.yaml"), "rules: []\n");
        Files.writeString(tmp.resolve("docs/a.md"), "# A\n[in](b.md) [dir](../examples/policies/) [out](c.md)\n");
        Files.writeString(tmp.resolve("docs/b.md"), "# B\n[file](../examples/policies/a.yaml)\n");
        Files.writeString(tmp.resolve("docs/c.md"), "# C\n");
        List<Path> shipped = List.of(tmp.resolve("docs/a.md"), tmp.resolve("docs/b.md"), tmp.resolve("examples/policies"));
        List<String> broken = new ArrayList<>();
        for (Path page : List.of(tmp.resolve("docs/a.md"), tmp.resolve("docs/b.md"))) {
            brokenLinks(tmp, page, to -> shipped.stream().anyMatch(to::startsWith) && Files.exists(to), broken);
        }
        assertEquals(List.of("docs/a.md:2: c.md: no such file"), broken);
    }

    /** The paths bin/lib/dist-docs names, as paths of the checkout. */
    private static List<Path> shipped(Path root) throws IOException {
        List<Path> paths = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve("bin/lib/dist-docs"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                Path path = root.resolve(line).normalize();
                assertTrue(Files.exists(path), "bin/lib/dist-docs names " + line + ", which is not there");
                paths.add(path);
            }
        }
        return paths;
    }

    @Test
    void anchorsAreSpelledAsGitHubSpellsThem() {
        assertEquals("--confirm-judge-the-confirmation-judge", anchor("`--confirm-judge`: the confirmation judge"));
        assertEquals("the-durable-log---record-sync", anchor("The durable log (`--record-sync`)"));
        assertEquals("--commit-stretto_commit", anchor("`--commit`: `stretto_commit`"));
        assertEquals("the-proxys-ids-and-the-hosts", anchor("The proxy's ids and the host's"));
        assertEquals("the-loop-record-learn-shadow-promote-serve", anchor("The loop: record, learn, shadow, promote, serve"));
        assertEquals("τ²-bench-shape", anchor("τ²-bench shape"));
    }

    @Test
    void aMissingFileOrHeadingIsFound(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("docs"));
        Files.writeString(tmp.resolve("docs/a.md"), """
                # A

                ## Twice
                ## Twice

                [ok](#twice-1) [ok](../README.md#top) [code](`x`) `[not a link](nowhere.md)`
                [gone](b.md) [no such heading](#thrice) [web](https://example.com/x.md)

                ```
                [in a code block](nowhere.md)
                ```
                """);
        Files.writeString(tmp.resolve("README.md"), "# Top\n[the page](docs/a.md#twice) [missing](docs/a.md#once)\n");
        List<String> broken = new ArrayList<>();
        brokenLinks(tmp, tmp.resolve("docs/a.md"), Files::exists, broken);
        brokenLinks(tmp, tmp.resolve("README.md"), Files::exists, broken);
        assertEquals(List.of("docs/a.md:7: b.md: no such file", "docs/a.md:7: #thrice: no such heading",
                "README.md:2: docs/a.md#once: no such heading"), broken);
    }

    /**
     * Adds each broken link of {@code page} to {@code broken}, a link being broken when
     * {@code there} says its file is not there, or its anchor names no heading of the page;
     * returns how many links it has.
     */
    private static int brokenLinks(Path root, Path page, Predicate<Path> there, List<String> broken)
            throws IOException {
        List<String> lines = outsideCode(Files.readString(page));
        int links = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINK.matcher(INLINE_CODE.matcher(lines.get(i)).replaceAll(""));
            while (m.find()) {
                String target = m.group(1);
                if (SCHEME.matcher(target).matches()) {
                    continue;
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = root.relativize(page) + ":" + (i + 1) + ": " + target;
                if (!there.test(to)) {
                    broken.add(where + ": no such file");
                } else if (hash >= 0 && to.toString().endsWith(".md")
                        && !anchors(to).contains(target.substring(hash + 1))) {
                    broken.add(where + ": no such heading");
                }
            }
        }
        return links;
    }

    /** The page's lines, with those of fenced code blocks blanked (their text is not Markdown). */
    private static List<String> outsideCode(String text) {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                lines.add("");
            } else {
                lines.add(fenced ? "" : line);
            }
        }
        return lines;
    }

    /** The anchors of a page's headings; a heading met again gets {@code -1}, {@code -2}, ... */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : outsideCode(Files.readString(page))) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String a = anchor(m.group(1));
                int n = seen.merge(a, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? a : a + "-" + n);
            }
        }
        return anchors;
    }

    private static String anchor(String heading) {
        return NOT_IN_ANCHOR.matcher(heading.strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }
}
