package dev.stretto.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The reference demo's recorded sessions, split into what went in and out: the session logs
 * under {@code testdata/reference/home/} at the top of the checkout (see testdata/README.md),
 * recorded by the reference proxy in front of its own {@code stretto-mcp-demo --world retail}.
 */
record ReferenceLogs(Path file, List<String> toServer, List<String> fromServer) {

    static Stream<ReferenceLogs> all() {
        try (Stream<Path> files = Files.walk(home())) {
            return files.filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".flow.jsonl"))
                    .sorted().map(ReferenceLogs::read).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** testdata/reference/home in the first ancestor of the module's directory that has it. */
    private static Path home() {
        Path moduleDir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = moduleDir; d != null; d = d.getParent()) {
            Path home = d.resolve("testdata/reference/home");
            if (Files.isDirectory(home)) {
                return home;
            }
        }
        throw new IllegalStateException("the test data is missing: expected testdata/reference/home at the top of"
                + " the checkout, above " + moduleDir);
    }

    /**
     * Reads a session log: messages the client or the proxy sent to the server (requests
     * and notifications, kept as the exact text logged) and the server's lines, in order.
     */
    static ReferenceLogs read(Path file) {
        List<String> in = new ArrayList<>();
        List<String> out = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                int at = line.indexOf("\"message\":");
                if (at < 0) {
                    continue;
                }
                String message = line.substring(at + "\"message\":".length(), line.length() - 1);
                if (line.contains("\"from\":\"server\"")) {
                    out.add(message);
                } else if ((line.contains("\"from\":\"client\"") || line.contains("\"from\":\"proxy\""))
                        && message.contains("\"method\":")) {
                    in.add(message);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ReferenceLogs(file, in, out);
    }

    @Override
    public String toString() {
        return file.getParent().getFileName() + "/" + file.getFileName();
    }
}
