// Copies of the six shop logs of the test data, for the parts that time many sessions.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

final class ShopLogs {

    private ShopLogs() {
    }

    /**
     * One copy.
     *
     * @param id   its session id: one second after the copy before it, from 2027-01-01, and its own pid
     * @param text the log's text with that id in its header
     */
    record Copy(String id, String text) {
    }

    /** The six shop logs, by name. */
    static List<Path> of(Path root) throws IOException {
        try (var files = Files.list(root.resolve("testdata/reference/home/logs/shop"))) {
            return files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    /** Copy {@code i} of {@code shop}'s logs, taken in turn. */
    static Copy copy(List<Path> shop, int i) throws IOException {
        Path source = shop.get(i % shop.size());
        String old = source.getFileName().toString().replace(".jsonl", "");
        String id = java.time.LocalDateTime.of(2027, 1, 1, 0, 0).plusSeconds(i)
                .format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")) + ".000Z-" + (20000 + i);
        String text = Files.readString(source, StandardCharsets.UTF_8);
        int firstLine = text.indexOf('\n');
        return new Copy(id, text.substring(0, firstLine).replace(old, id) + text.substring(firstLine));
    }
}
