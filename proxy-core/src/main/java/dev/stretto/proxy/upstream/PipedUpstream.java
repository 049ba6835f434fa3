package dev.stretto.proxy.upstream;

import dev.stretto.proxy.io.Line;

/**
 * An upstream whose server reads the host's lines from a pipe: a child process's stdin or an
 * in-JVM server's stream. Sending is the same for both, through their {@link ServerInput}.
 */
interface PipedUpstream extends Upstream {

    /** Where the host's lines are written; set before the first send. */
    ServerInput input();

    @Override
    default void send(byte[] line, boolean newline) {
        send(new Line(line, newline));
    }

    @Override
    default void send(Line line) {
        send(line, false);
    }

    @Override
    default void send(Line line, boolean more) {
        input().write(line, !more);
    }

    @Override
    default boolean takesBytes() {
        return true;
    }

    @Override
    default void sendBytes(byte[] bytes, int offset, int length) {
        input().write(bytes, offset, length);
    }

    @Override
    default void flush() {
        input().write(null, true);
    }
}
