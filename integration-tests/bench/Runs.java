// The benchmark's scenarios, each one run of one process (see Benchmark.java). Every answer is
// checked (ids, bytes), in --quick mode as in the full run: a figure from a run that lost or
// changed a line would mean nothing.

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

final class Runs {

    /** How long a process is left alone after initialize before its resident set is read. */
    static final long IDLE_WAIT_MS = 300;

    private Runs() {
    }

    /** The demo server of {@code setup}: the checkout's, or a distribution's. */
    static List<String> demo(Setup setup) {
        return List.of(setup.demo().toString());
    }

    static final List<String> CAT = List.of("cat");

    /**
     * Against the demo: the time from the process's start to the initialize answer, the resident
     * set once idle, then sequential ping round trips (after a warm-up), as percentiles.
     */
    static Map<Benchmark.Measure, Double> startupIdleAndPings(Setup setup, Benchmark.Options o) throws Exception {
        Map<Benchmark.Measure, Double> out = new EnumMap<>(Benchmark.Measure.class);
        try (Proc p = Proc.start(setup.command(demo(setup)))) {
            p.write(Benchmark.INIT);
            p.expectLine("\"id\":0");
            out.put(Benchmark.Measure.STARTUP_MS, (System.nanoTime() - p.startNanos) / 1e6);
            p.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            Thread.sleep(IDLE_WAIT_MS);
            out.put(Benchmark.Measure.IDLE_RSS_MB, p.status("VmRSS") * 1024 / 1e6);
            long[] rtt = new long[o.pings()];
            for (int i = -o.warmUpPings(); i < o.pings(); i++) {
                String id = Integer.toString(i + o.warmUpPings() + 1);
                long s = System.nanoTime();
                p.write("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}\n");
                p.expectLine("\"id\":" + id + ",");
                if (i >= 0) {
                    rtt[i] = System.nanoTime() - s;
                }
            }
            Arrays.sort(rtt);
            out.put(Benchmark.Measure.PING_P50_US, percentile(rtt, 0.50) / 1e3);
            out.put(Benchmark.Measure.PING_P90_US, percentile(rtt, 0.90) / 1e3);
            out.put(Benchmark.Measure.PING_P99_US, percentile(rtt, 0.99) / 1e3);
            p.endAndAwait();
        }
        return out;
    }

    /**
     * Against the demo: {@code parallelCalls} tools/call written at once, each answered after
     * {@code delayMs}, until the last answer; each id must be answered exactly once.
     */
    static Map<Benchmark.Measure, Double> parallelCalls(Setup setup, Benchmark.Options o) throws Exception {
        int n = o.parallelCalls();
        StringBuilder calls = new StringBuilder();
        for (int i = 0; i < n; i++) {
            calls.append("{\"jsonrpc\":\"2.0\",\"id\":\"p").append(i).append("\",\"method\":\"tools/call\",\"params\":")
                    .append("{\"name\":\"lookup\",\"arguments\":{\"text\":\"call ").append(i).append("\",\"delay_ms\":")
                    .append(o.delayMs()).append("}}}\n");
        }
        byte[] bytes = calls.toString().getBytes(StandardCharsets.UTF_8);
        try (Proc p = Proc.start(setup.command(demo(setup)))) {
            p.write(Benchmark.INIT);
            p.expectLine("\"id\":0");
            long t0 = System.nanoTime();
            Thread writer = p.writeInBackground(bytes);
            boolean[] answered = new boolean[n];
            for (int k = 0; k < n; k++) {
                String line = p.readLine();
                int at = line == null ? -1 : line.indexOf("\"id\":\"p");
                if (at < 0 || !line.contains("\"result\"")) {
                    throw new IllegalStateException(setup.label() + ": unexpected answer " + line + p.stderrTail());
                }
                int id = Integer.parseInt(line.substring(at + 7, line.indexOf('"', at + 7)));
                if (answered[id]) {
                    throw new IllegalStateException(setup.label() + ": call p" + id + " answered twice");
                }
                answered[id] = true;
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            writer.join();
            p.endAndAwait();
            return Map.of(Benchmark.Measure.PARALLEL_MS, ms);
        }
    }

    /**
     * Against cat: {@code volume} bytes of lines of {@code lineSize} bytes written as fast as the
     * pipe takes them, read back (and compared by CRC-32) as fast as they come; the clock runs
     * from the first byte written to the last byte read.
     */
    static Map<Benchmark.Measure, Double> throughput(Setup setup, Benchmark.Options o, int lineSize, long volume,
                                                     Benchmark.Measure measure) throws Exception {
        Lines.Block block = Lines.block(lineSize);
        long blocks = Math.max(1, volume / block.length());
        long expected = block.crc(blocks);
        try (Proc p = Proc.start(setup.command(CAT))) {
            p.write(Lines.PROBE);
            p.expectLine("notifications/probe");
            long t0 = System.nanoTime();
            Thread writer = p.writeInBackground(block, blocks);
            long crc = p.readAndCrc(block.length() * blocks);
            double seconds = (System.nanoTime() - t0) / 1e9;
            writer.join();
            if (crc != expected) {
                throw new IllegalStateException(setup.label() + ": the lines came back changed");
            }
            p.endAndAwait();
            return Map.of(measure, block.length() * blocks / seconds / 1e6);
        }
    }

    /**
     * Against cat: one line of {@code bigLineMiB} MiB (a tools/call result, as a large file read
     * gives) sent and read back; the process's peak resident set (VmHWM) then, and the time.
     */
    static Map<Benchmark.Measure, Double> bigLine(Setup setup, Benchmark.Options o) throws Exception {
        byte[] line = Lines.result("7", o.bigLineMiB() << 20);
        try (Proc p = Proc.start(setup.command(CAT))) {
            p.write(Lines.PROBE);
            p.expectLine("notifications/probe");
            long t0 = System.nanoTime();
            Thread writer = p.writeInBackground(line);
            long crc = p.readAndCrc(line.length);
            double ms = (System.nanoTime() - t0) / 1e6;
            writer.join();
            CRC32 expected = new CRC32();
            expected.update(line);
            if (crc != expected.getValue()) {
                throw new IllegalStateException(setup.label() + ": the line came back changed");
            }
            double peakMb = p.status("VmHWM") / 1024.0;
            p.endAndAwait();
            return Map.of(Benchmark.Measure.BIG_RSS_MB, peakMb, Benchmark.Measure.BIG_MS, ms);
        }
    }

    static double percentile(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }

    /** The lines the throughput scenarios send: JSON-RPC messages with text of every kind in them. */
    static final class Lines {
        static final String PROBE = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/probe\"}\n";

        // JSON string content, escaped as it is on the wire: quotes, backslashes, a newline, a
        // tab, accented letters, a check mark and a \\u escape, as tool results hold them.
        private static final String UNIT = "Lorem ipsum \\\"dolor\\\" sit amet, caf\u00e9 cr\u00e8me \u2713 "
                + "C:\\\\temp\\\\x.txt\\n\\tline two \\u00e9 42 3.14e-2; ";

        private Lines() {
        }

        /**
         * Lines written over and over: at least a MiB of them, each with an id of its own, and
         * the digits of every id renewed at each writing ({@link #number}), so that no two lines
         * the benchmark sends have the same id (active mode refuses a call whose id is in flight,
         * and through cat no call is ever answered).
         *
         * @param bytes    the lines
         * @param idDigits where each line's number of the writing is, {@value #DIGITS} digits
         */
        record Block(byte[] bytes, int[] idDigits) {
            static final int DIGITS = 7;

            int length() {
                return bytes.length;
            }

            /** Makes the lines those of writing {@code n}. */
            void number(long n) {
                long v = n;
                byte[] digits = new byte[DIGITS];
                for (int d = DIGITS - 1; d >= 0; d--) {
                    digits[d] = (byte) ('0' + v % 10);
                    v /= 10;
                }
                for (int at : idDigits) {
                    System.arraycopy(digits, 0, bytes, at, DIGITS);
                }
            }

            /** The CRC-32 of the first {@code times} writings, one after the other. */
            long crc(long times) {
                CRC32 crc = new CRC32();
                for (long i = 0; i < times; i++) {
                    number(i);
                    crc.update(bytes);
                }
                return crc.getValue();
            }
        }

        /**
         * Lines of exactly {@code size} bytes (with the newline): 1 KiB ones are tools/call
         * requests, as a load test sends; larger ones tools/call results, as a file read answers.
         */
        static Block block(int size) {
            int count = Math.max(4, (1 << 20) / size);
            byte[] block = new byte[count * size];
            int[] digits = new int[count];
            for (int i = 0; i < count; i++) {
                String id = "\"" + "0".repeat(Block.DIGITS) + "-" + i + "\"";
                byte[] line = size <= 4096 ? request(id, size) : result(id, size);
                System.arraycopy(line, 0, block, i * size, size);
                digits[i] = i * size + ID_AT + 1;
            }
            return new Block(block, digits);
        }

        // Where a line's id starts: right after the head both kinds of line share.
        private static final int ID_AT = "{\"jsonrpc\":\"2.0\",\"id\":".length();

        static byte[] request(String id, int size) {
            return exactly("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"lookup\",\"arguments\":{\"text\":\"", "\"}}}\n", size);
        }

        static byte[] result(String id, int size) {
            return exactly("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":\"", "\"}],\"isError\":false}}\n", size);
        }

        private static byte[] exactly(String head, String tail, int size) {
            byte[] h = head.getBytes(StandardCharsets.UTF_8);
            byte[] t = tail.getBytes(StandardCharsets.UTF_8);
            byte[] unit = UNIT.getBytes(StandardCharsets.UTF_8);
            byte[] line = new byte[size];
            System.arraycopy(h, 0, line, 0, h.length);
            int at = h.length;
            int end = size - t.length;
            while (at + unit.length <= end) {
                System.arraycopy(unit, 0, line, at, unit.length);
                at += unit.length;
            }
            Arrays.fill(line, at, end, (byte) 'x');
            System.arraycopy(t, 0, line, end, t.length);
            return line;
        }

    }

    /**
     * A process under test: its pipes, its start time, its stderr kept in a file for errors. A
     * process that gives nothing for {@link #STALL_SECONDS} while it is read is killed, so that
     * a run that lost a line fails instead of waiting for it for good.
     */
    static final class Proc implements AutoCloseable {
        static final long STALL_SECONDS = 120;

        final Process process;
        final long startNanos;
        private final java.nio.file.Path stderr;
        private final java.io.BufferedInputStream out;
        private final OutputStream in;
        // While a read waits: when the last bytes came (nanoTime); 0 while nothing is read.
        private volatile long readingSince;
        private volatile boolean stalled;

        private Proc(Process process, long startNanos, java.nio.file.Path stderr) {
            this.process = process;
            this.startNanos = startNanos;
            this.stderr = stderr;
            this.out = new java.io.BufferedInputStream(process.getInputStream(), 1 << 17);
            this.in = process.getOutputStream();
            Thread.ofPlatform().daemon().start(this::watch);
        }

        // Kills the process once a read has waited STALL_SECONDS for bytes; ends with it.
        private void watch() {
            try {
                while (!process.waitFor(1, java.util.concurrent.TimeUnit.SECONDS)) {
                    long since = readingSince;
                    if (since != 0 && System.nanoTime() - since > STALL_SECONDS * 1_000_000_000L) {
                        stalled = true;
                        process.descendants().forEach(ProcessHandle::destroyForcibly);
                        process.destroyForcibly();
                    }
                }
            } catch (InterruptedException e) {
                // Nobody interrupts it.
            }
        }

        static Proc start(List<String> command) throws IOException {
            return start(command, Map.of());
        }

        /** Starts {@code command} with {@code env} added to this JVM's environment. */
        static Proc start(List<String> command, Map<String, String> env) throws IOException {
            java.nio.file.Path err = java.nio.file.Files.createTempFile("stretto-bench", ".err");
            long t0 = System.nanoTime();
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
            builder.environment().putAll(env);
            Process p = builder.start();
            return new Proc(p, t0, err);
        }

        void write(String s) throws IOException {
            in.write(s.getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** Writes {@code bytes} on a thread of its own. */
        Thread writeInBackground(byte[] bytes) {
            return inBackground(() -> in.write(bytes));
        }

        /** Writes {@code block} {@code times} times, numbered anew each time, on a thread of its own. */
        Thread writeInBackground(Lines.Block block, long times) {
            return inBackground(() -> {
                for (long i = 0; i < times; i++) {
                    block.number(i);
                    in.write(block.bytes());
                }
            });
        }

        private interface Writing {
            void run() throws IOException;
        }

        private Thread inBackground(Writing writing) {
            return Thread.ofPlatform().start(() -> {
                try {
                    writing.run();
                    in.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }

        /** The next line without its newline, or null at the end of the output. */
        String readLine() throws IOException {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(256);
            int b;
            readingSince = System.nanoTime();
            try {
                while ((b = out.read()) >= 0 && b != '\n') {
                    line.write(b);
                }
            } finally {
                readingSince = 0;
            }
            return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
        }

        void expectLine(String part) throws IOException {
            String line = readLine();
            if (line == null || !line.contains(part)) {
                throw new IllegalStateException("expected a line with " + part + ", got " + line + stderrTail());
            }
        }

        /** Reads exactly {@code n} bytes and returns their CRC-32. */
        long readAndCrc(long n) throws IOException {
            CRC32 crc = new CRC32();
            byte[] buf = new byte[1 << 17];
            long left = n;
            try {
                while (left > 0) {
                    readingSince = System.nanoTime();
                    int r = out.read(buf, 0, (int) Math.min(buf.length, left));
                    if (r < 0) {
                        throw new IllegalStateException("the output ended " + left + " bytes early" + stderrTail());
                    }
                    crc.update(buf, 0, r);
                    left -= r;
                }
            } finally {
                readingSince = 0;
            }
            return crc.getValue();
        }

        /** A field of /proc/PID/status in kB (VmRSS, VmHWM). */
        long status(String field) throws IOException {
            for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/" + process.pid() + "/status"))) {
                if (l.startsWith(field + ":")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
            throw new IllegalStateException("no " + field + " for process " + process.pid());
        }

        /** Closes the process's input and waits for it to exit with status 0. */
        void endAndAwait() throws Exception {
            in.close();
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("the process did not exit within 60 s of its input closing");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("the process exited with " + process.exitValue() + stderrTail());
            }
        }

        String stderrTail() {
            String killed = stalled ? "; it was killed after " + STALL_SECONDS + " s without output" : "";
            try {
                String s = java.nio.file.Files.readString(stderr);
                return killed + (s.isEmpty() ? "" : "; its stderr: " + s.substring(Math.max(0, s.length() - 2000)));
            } catch (IOException e) {
                return killed;
            }
        }

        @Override
        public void close() throws IOException {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            java.nio.file.Files.deleteIfExists(stderr);
        }
    }
}
