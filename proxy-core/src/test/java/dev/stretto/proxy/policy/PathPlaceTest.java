package dev.stretto.proxy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a path really is, against a tree of real files and links: {@code ..} and links
 * followed both ways servers read paths, a doubt {@code UNKNOWN}; and generated paths held
 * against the file system's own answer ({@code toRealPath}).
 */
class PathPlaceTest {

    @TempDir
    static Path tmp;
    static Path root;
    static Path data;

    @BeforeAll
    static void tree() throws IOException {
        root = tmp.toRealPath();
        data = Files.createDirectories(root.resolve("data"));
        Files.writeString(data.resolve("file.txt"), "in");
        Files.createDirectories(data.resolve("sub"));
        Files.writeString(data.resolve("sub/inner.txt"), "in");
        Path secret = Files.createDirectories(root.resolve("secret"));
        Files.writeString(secret.resolve("s.txt"), "out");
        Files.createDirectories(secret.resolve("deeper"));
        Files.createDirectories(root.resolve("data-sibling"));
        Files.createSymbolicLink(data.resolve("link-out"), secret);
        Files.createSymbolicLink(data.resolve("link-file-out"), secret.resolve("s.txt"));
        Files.createSymbolicLink(data.resolve("link-in"), Path.of("sub"));
        Files.createSymbolicLink(data.resolve("link-deep"), secret.resolve("deeper"));
        Files.createSymbolicLink(data.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(data.resolve("loop2"), Path.of("loop1"));
        Files.createSymbolicLink(data.resolve("dangling"), root.resolve("nowhere/x"));
        Files.createSymbolicLink(data.resolve("up"), Path.of(".."));
        Files.createSymbolicLink(root.resolve("alias"), data);
    }

    private static PathPlace place(String path, String directory) {
        return PathPlace.of(path.replace("ROOT", root.toString()), List.of(Path.of(directory.replace("ROOT",
                root.toString()))));
    }

    @ParameterizedTest
    @CsvSource({
            "ROOT/data/file.txt, INSIDE", "ROOT/data, INSIDE", "ROOT/data/, INSIDE", "ROOT/data//file.txt, INSIDE",
            "ROOT/data/./file.txt, INSIDE", "ROOT/data/sub/../file.txt, INSIDE", "ROOT/data/new-file.txt, INSIDE",
            "ROOT/data/link-in/inner.txt, INSIDE", "ROOT/data/../secret/s.txt, OUTSIDE",
            "ROOT/data/sub/../../secret, OUTSIDE", "ROOT/data/link-out/s.txt, OUTSIDE",
            "ROOT/data/link-out/new.txt, OUTSIDE", "ROOT/data/link-file-out, OUTSIDE", "ROOT/data/dangling, OUTSIDE",
            "ROOT/data/up/secret/s.txt, OUTSIDE", "ROOT/data/link-in/../../secret/s.txt, OUTSIDE",
            "ROOT/data-sibling/x, OUTSIDE", "/, OUTSIDE", "/etc/passwd, OUTSIDE", "ROOT/data/../../../../etc, OUTSIDE",
            "ROOT/data/nodir/../../secret/s.txt, OUTSIDE", "ROOT/data/loop1/x, UNKNOWN", "ROOT/data/link-deep/.., UNKNOWN",
            "data/file.txt, UNKNOWN", "~/file.txt, UNKNOWN", "'', UNKNOWN", "file:///etc/passwd, UNKNOWN",
            "./ROOT/data/file.txt, UNKNOWN"})
    void placeAgainstTheDataDirectory(String path, PathPlace expected) {
        assertEquals(expected, place(path, "ROOT/data"));
    }

    @Test
    void aDirectoryGivenThroughALinkIsWhereTheLinkLeads() {
        assertEquals(PathPlace.INSIDE, place("ROOT/data/file.txt", "ROOT/alias"));
        assertEquals(PathPlace.INSIDE, place("ROOT/alias/file.txt", "ROOT/data"));
        assertEquals(PathPlace.OUTSIDE, place("ROOT/alias/link-out/s.txt", "ROOT/alias"));
    }

    @Test
    void aNulCharacterIsNeverAPlace() {
        assertEquals(PathPlace.UNKNOWN, place("ROOT/data/file.txt\0../../secret", "ROOT/data"));
    }

    /** Generated paths over the tree, each held against the file system's own reading of it, both ways. */
    @Test
    void generatedPathsAreWhereTheFileSystemSaysBothWays() throws IOException {
        String[] parts = {"data", "sub", "..", ".", "link-out", "link-in", "link-deep", "up", "file.txt", "secret",
                "deeper", "alias", "", "inner.txt"};
        Random random = new Random(11);
        Path realData = data.toRealPath();
        int checked = 0;
        for (int i = 0; i < 5000; i++) {
            StringBuilder p = new StringBuilder(root.toString());
            for (int k = 0, n = 1 + random.nextInt(6); k < n; k++) {
                p.append('/').append(parts[random.nextInt(parts.length)]);
            }
            String path = p.toString();
            Path kernel;
            Path textFirst;
            try {
                kernel = Path.of(path).toRealPath();
                textFirst = Path.of(path).normalize().toRealPath();
            } catch (IOException doesNotExist) {
                // Not there both ways: still never inside when the kernel's reading leaves the directory.
                PathPlace place = PathPlace.of(path, List.of(data));
                try {
                    Path k = Path.of(path).toRealPath();
                    if (!k.startsWith(realData)) {
                        assertTrue(place != PathPlace.INSIDE, path + " is " + place);
                    }
                } catch (IOException e) {
                    // Neither reading exists.
                }
                continue;
            }
            boolean a = kernel.startsWith(realData);
            boolean b = textFirst.startsWith(realData);
            PathPlace expected = a && b ? PathPlace.INSIDE : !a && !b ? PathPlace.OUTSIDE : PathPlace.UNKNOWN;
            assertEquals(expected, PathPlace.of(path, List.of(data)), path);
            checked++;
        }
        assertTrue(checked > 500, "paths checked: " + checked);
    }
}
