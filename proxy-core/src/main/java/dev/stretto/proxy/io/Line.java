package dev.stretto.proxy.io;

import java.util.Objects;

/**
 * One line as it crossed a pipe: its bytes without the {@code '\n'} (a {@code '\r'} before it
 * stays part of the line), and whether it had that terminator. Only the last line of a
 * stream can lack one. The array is never modified after the line is made; readers of it
 * must not modify it either, since the same array is logged and forwarded.
 *
 * @param bytes      the line's bytes, without its {@code '\n'}
 * @param terminated false only for a last line that ended at end of stream
 */
public record Line(byte[] bytes, boolean terminated) {

    /** @throws NullPointerException when {@code bytes} is null */
    public Line {
        Objects.requireNonNull(bytes, "bytes");
    }
}
