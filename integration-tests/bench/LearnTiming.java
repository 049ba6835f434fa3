// How long `stretto learn --habit-only` takes for many sessions (see Benchmark.java).

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

final class LearnTiming {

    private LearnTiming() {
    }

    /**
     * Copies of the six shop logs of the test data, each with a fresh session id, written into a
     * temporary directory and learned from {@code rounds} times; the median is printed, with the
     * JVM's start-up included.
     */
    static void run(Path root, int sessions, int rounds) throws Exception {
        Path dir = Files.createTempDirectory("stretto-bench-learn");
        try {
            Path logs = Files.createDirectories(dir.resolve("logs"));
            List<Path> shop;
            try (var files = Files.list(root.resolve("testdata/reference/home/logs/shop"))) {
                shop = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
            }
            java.time.LocalDateTime start = java.time.LocalDateTime.of(2027, 1, 1, 0, 0);
            for (int i = 0; i < sessions; i++) {
                Path source = shop.get(i % shop.size());
                String old = source.getFileName().toString().replace(".jsonl", "");
                String id = start.plusSeconds(i).format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss"))
                        + ".000Z-" + (20000 + i);
                String text = Files.readString(source, StandardCharsets.UTF_8);
                int firstLine = text.indexOf('\n');
                Files.writeString(logs.resolve(id + ".jsonl"), text.substring(0, firstLine).replace(old, id)
                        + text.substring(firstLine), StandardCharsets.UTF_8);
            }
            List<Double> seconds = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder(root.resolve("bin/stretto").toString(), "learn", "--sessions",
                        logs.toString(), "--domain", "shop", "--out", dir.resolve("shop.flow.json").toString(),
                        "--habit-only").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (p.waitFor() != 0) {
                    throw new IllegalStateException("stretto learn failed with status " + p.exitValue());
                }
                seconds.add((System.nanoTime() - t0) / 1e9);
            }
            System.out.printf(Locale.ROOT, "stretto learn --habit-only, %d sessions: %.1f s (median of %d runs)%n",
                    sessions, Benchmark.median(seconds), rounds);
        } finally {
            Benchmark.emptyDirectory(dir);
            Files.deleteIfExists(dir);
        }
    }
}
