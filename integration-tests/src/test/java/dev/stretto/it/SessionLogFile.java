package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A session log as the tests see it: the file's lines, parsed, with the raw text kept. */
record SessionLogFile(Path path, List<String> lines, JsonNode header, List<JsonNode> entries) {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The only session log in {@code dir}: a *.jsonl file, flow and confirm logs aside. */
    static SessionLogFile onlyIn(Path dir) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(dir)) {
            logs = s.filter(p -> p.getFileName().toString().matches(".*(?<!\\.flow|\\.confirm)\\.jsonl")).toList();
        }
        assertEquals(1, logs.size(), "session logs in " + dir + ": " + logs);
        return read(logs.getFirst());
    }

    static SessionLogFile read(Path path) throws IOException {
        String text = Files.readString(path, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\n"), "a complete log ends with a newline");
        List<String> lines = List.of(text.substring(0, text.length() - 1).split("\n", -1));
        List<JsonNode> entries = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            entries.add(JSON.readTree(line));
        }
        return new SessionLogFile(path, lines, JSON.readTree(lines.getFirst()), entries);
    }

    /** The verbatim text of entry i's message (as spliced into the log line). */
    String messageText(int i) {
        String line = lines.get(i + 1);
        int at = line.indexOf(",\"message\":");
        assertTrue(at > 0, "entry " + i + " is not a message: " + line);
        return line.substring(at + ",\"message\":".length(), line.length() - 1);
    }

    List<Integer> indexesFrom(String from) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).path("from").asText().equals(from)) {
                out.add(i);
            }
        }
        return out;
    }

    void assertTimesNeverDecrease() {
        long last = -1;
        for (JsonNode e : entries) {
            long t = e.path("t_ms").asLong(-1);
            assertTrue(t >= last, "t_ms went from " + last + " to " + t);
            last = t;
        }
    }
}
