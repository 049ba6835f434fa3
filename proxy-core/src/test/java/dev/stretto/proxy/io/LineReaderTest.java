package dev.stretto.proxy.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    private static List<Line> readAll(InputStream in) throws IOException {
        LineReader r = new LineReader(in);
        List<Line> lines = new ArrayList<>();
        Line l;
        while ((l = r.next()) != null) {
            lines.add(l);
        }
        return lines;
    }

    private static byte[] join(List<Line> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Line l : lines) {
            out.writeBytes(l.bytes());
            if (l.terminated()) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void crlfKeepsTheCarriageReturnInTheLine() throws IOException {
        List<Line> lines = readAll(new ByteArrayInputStream(ascii("a\r\nb\r\n")));
        assertEquals(2, lines.size());
        assertArrayEquals(ascii("a\r"), lines.get(0).bytes());
        assertArrayEquals(ascii("b\r"), lines.get(1).bytes());
        assertTrue(lines.get(1).terminated());
    }

    @Test
    void blankLinesAreLinesOfTheirOwn() throws IOException {
        List<Line> lines = readAll(new ByteArrayInputStream(ascii("\n\nx\n\n")));
        assertEquals(4, lines.size());
        assertEquals(0, lines.get(0).bytes().length);
        assertEquals(0, lines.get(1).bytes().length);
        assertArrayEquals(ascii("x"), lines.get(2).bytes());
        assertEquals(0, lines.get(3).bytes().length);
    }

    @Test
    void aLastLineWithoutNewlineIsMarkedUnterminated() throws IOException {
        List<Line> lines = readAll(new ByteArrayInputStream(ascii("one\ntwo")));
        assertEquals(2, lines.size());
        assertTrue(lines.get(0).terminated());
        assertArrayEquals(ascii("two"), lines.get(1).bytes());
        assertFalse(lines.get(1).terminated());
    }

    @Test
    void emptyStreamHasNoLines() throws IOException {
        assertNull(new LineReader(new ByteArrayInputStream(new byte[0])).next());
    }

    @Test
    void anEightMebibyteLineComesThroughWhole() throws IOException {
        byte[] big = new byte[8 * 1024 * 1024 + 17];
        Arrays.fill(big, (byte) 'x');
        byte[] input = new byte[big.length + 3];
        System.arraycopy(big, 0, input, 0, big.length);
        input[big.length] = '\n';
        input[big.length + 1] = 'y';
        input[big.length + 2] = '\n';
        List<Line> lines = readAll(new ByteArrayInputStream(input));
        assertEquals(2, lines.size());
        assertArrayEquals(big, lines.get(0).bytes());
        assertArrayEquals(ascii("y"), lines.get(1).bytes());
    }

    @Test
    void invalidUtf8IsKeptAsBytes() throws IOException {
        byte[] input = {(byte) 0xff, (byte) 0xc3, '(', '\n', (byte) 0xe2, (byte) 0x82};
        List<Line> lines = readAll(new ByteArrayInputStream(input));
        assertArrayEquals(input, join(lines));
        assertArrayEquals(new byte[]{(byte) 0xff, (byte) 0xc3, '('}, lines.get(0).bytes());
    }

    @Test
    void linesSplitAcrossReadsOfAnySizeJoinBackToTheSameBytes() throws IOException {
        Random random = new Random(42);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (int i = 0; i < 300; i++) {
            int len = random.nextInt(10) == 0 ? random.nextInt(300_000) : random.nextInt(50);
            for (int j = 0; j < len; j++) {
                int b = random.nextInt(256);
                data.write(b == '\n' ? 'n' : b);
            }
            if (random.nextInt(5) == 0) {
                data.write('\r');
            }
            data.write('\n');
        }
        data.write('z');
        byte[] bytes = data.toByteArray();
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(70_000)));
            }
        };
        List<Line> lines = readAll(trickle);
        assertEquals(301, lines.size());
        assertArrayEquals(bytes, join(lines));
    }

    @Test
    void runsHoldEveryWholeLineOfAReadAndJoinBackToTheSameBytes() throws IOException {
        Random random = new Random(43);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        int lines = 0;
        for (int i = 0; i < 2000; i++) {
            int len = random.nextInt(40) == 0 ? random.nextInt(300_000) : random.nextInt(2000);
            for (int j = 0; j < len; j++) {
                int b = random.nextInt(256);
                data.write(b == '\n' ? 'n' : b);
            }
            data.write('\n');
            lines++;
        }
        data.write('z');
        lines++;
        byte[] bytes = data.toByteArray();
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(70_000)));
            }
        };
        LineReader reader = new LineReader(trickle);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        int counted = 0;
        int runs = 0;
        LineRun run;
        while ((run = reader.nextRun()) != null) {
            runs++;
            counted += run.count();
            run.line().writeTo(joined);
            if (run.line().terminated()) {
                joined.write('\n');
            }
        }
        assertArrayEquals(bytes, joined.toByteArray());
        assertEquals(lines, counted);
        assertTrue(runs < lines / 4, "lines of one read come together: " + runs + " runs for " + lines + " lines");
    }

    @Test
    void aRunEndsWithTheLastWholeLineAndTheRestWaitsForItsEnd() throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(ascii("a\nbc\nde")));
        LineRun first = reader.nextRun();
        assertEquals(2, first.count());
        assertArrayEquals(ascii("a\nbc\n"), first.line().bytes());
        assertFalse(first.line().terminated(), "its terminators are among its bytes");
        LineRun last = reader.nextRun();
        assertEquals(1, last.count());
        assertArrayEquals(ascii("de"), last.line().bytes());
        assertFalse(last.line().terminated());
        assertNull(reader.nextRun());
    }
}
