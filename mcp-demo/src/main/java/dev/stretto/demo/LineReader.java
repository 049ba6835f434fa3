package dev.stretto.demo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Splits a byte stream into lines at {@code \n}, without decoding them. */
final class LineReader {
    private final InputStream in;
    private final byte[] buffer = new byte[8192];
    private int start;
    private int end;

    LineReader(InputStream in) {
        this.in = in;
    }

    /** The next line without its {@code \n}, or null at the end of the stream. */
    byte[] next() throws IOException {
        ByteArrayOutputStream line = null;
        while (true) {
            if (start == end) {
                int n = in.read(buffer);
                if (n < 0) {
                    return line == null ? null : line.toByteArray();
                }
                start = 0;
                end = n;
            }
            for (int i = start; i < end; i++) {
                if (buffer[i] == '\n') {
                    byte[] result;
                    if (line == null) {
                        result = java.util.Arrays.copyOfRange(buffer, start, i);
                    } else {
                        line.write(buffer, start, i - start);
                        result = line.toByteArray();
                    }
                    start = i + 1;
                    return result;
                }
            }
            if (line == null) {
                line = new ByteArrayOutputStream(Math.max(64, 2 * (end - start)));
            }
            line.write(buffer, start, end - start);
            start = end;
        }
    }

    /** True if the line holds nothing but JSON whitespace. */
    static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }
}
