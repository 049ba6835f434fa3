package dev.stretto.demo;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** An in-memory stdout that records each write and flush, and tells a listener about each write. */
final class RecordingOutput extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final List<String> writes = new ArrayList<>();
    private final Consumer<String> onWrite;
    private int flushes;

    RecordingOutput(Consumer<String> onWrite) {
        this.onWrite = onWrite;
    }

    RecordingOutput() {
        this(_ -> {
        });
    }

    @Override
    public synchronized void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        String text = new String(b, off, len, StandardCharsets.UTF_8);
        synchronized (this) {
            bytes.write(b, off, len);
            writes.add(text);
        }
        onWrite.accept(text);
    }

    @Override
    public synchronized void flush() {
        flushes++;
    }

    synchronized String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    synchronized List<String> lines() {
        String all = text();
        return all.isEmpty() ? List.of() : List.of(all.split("\n", -1)).subList(0, all.split("\n", -1).length - 1);
    }

    synchronized List<String> writes() {
        return List.copyOf(writes);
    }

    synchronized int flushes() {
        return flushes;
    }
}
