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
            List<Path> shop = ShopLogs.of(root);
            for (int i = 0; i < sessions; i++) {
                ShopLogs.Copy copy = ShopLogs.copy(shop, i);
                Files.writeString(logs.resolve(copy.id() + ".jsonl"), copy.text(), StandardCharsets.UTF_8);
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
