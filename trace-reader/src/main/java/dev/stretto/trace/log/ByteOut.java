package dev.stretto.trace.log;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Bytes being written: a buffer that writes itself out to a stream whenever it is full (large
 * pieces go to the stream directly), or, without a stream, grows to hold everything. Not
 * thread-safe.
 */
final class ByteOut {
    private final OutputStream out;
    private byte[] buf;
    private int len;

    /** @param out where full buffers go, or null to keep every byte */
    ByteOut(OutputStream out, int size) {
        this.out = out;
        this.buf = new byte[size];
    }

    void put(int b) {
        if (len == buf.length) {
            makeRoom(1);
        }
        buf[len++] = (byte) b;
    }

    void put(byte[] b, int off, int n) {
        if (n > buf.length - len) {
            if (out != null && n >= buf.length) {
                drain();
                write(b, off, n);
                return;
            }
            makeRoom(n);
        }
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    /** Writes {@code n} in decimal. */
    void putDecimal(long n) {
        if (n >= 0 && n < 10) {
            put('0' + (int) n);
            return;
        }
        byte[] digits = Long.toString(n).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        put(digits, 0, digits.length);
    }

    /** Writes what is buffered to the stream; if that fails, what was buffered is dropped. */
    void drain() {
        if (out != null && len > 0) {
            int n = len;
            len = 0;
            write(buf, 0, n);
        }
    }

    /** Everything written, without a stream. */
    byte[] bytes() {
        return Arrays.copyOf(buf, len);
    }

    int length() {
        return len;
    }

    private void makeRoom(int n) {
        if (out != null) {
            drain();
            if (n <= buf.length) {
                return;
            }
        }
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }

    private void write(byte[] b, int off, int n) {
        try {
            out.write(b, off, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
