package dev.stretto.proxy;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a child server's stderr goes ({@link UpstreamSpec.Command#withStderr}). The default is
 * {@link #inherit()}, the proxy's own stderr, which is right for the CLI (a host shows its
 * servers' stderr) and wrong for a harness running many sessions: give each its own.
 */
public sealed interface ServerStderr {

    /** {@return the proxy's own stderr: the server's messages mix with the proxy's (and the program's)} */
    static ServerStderr inherit() {
        return new Inherit();
    }

    /** {@return nowhere: the server's stderr is thrown away by the OS} */
    static ServerStderr discard() {
        return new Discard();
    }

    /**
     * Appended to {@code file}, which is created if missing (the sessions of a harness may
     * share one file; their lines may then interleave). A file that cannot be opened stops the
     * session before the server starts.
     *
     * @param file the file
     * @return the choice
     */
    static ServerStderr appendTo(Path file) {
        return new AppendTo(file);
    }

    /**
     * Written to {@code out}, a stream of the caller's, by a thread of the session's that
     * drains the server's stderr as it comes (chunks as read, flushed after each; when
     * sessions share a stream, make its writes thread-safe). Everything the server wrote to
     * stderr is in {@code out} when the session ends, unless a process it left behind still
     * holds the pipe. If a write fails, that is reported once and the rest is thrown away: the
     * server never blocks on a full stderr. The stream is not closed.
     *
     * @param out the caller's stream
     * @return the choice
     */
    static ServerStderr to(OutputStream out) {
        return new ToStream(out);
    }

    /** See {@link #inherit()}. */
    record Inherit() implements ServerStderr {
    }

    /** See {@link #discard()}. */
    record Discard() implements ServerStderr {
    }

    /**
     * See {@link #appendTo(Path)}.
     *
     * @param file the file appended to
     */
    record AppendTo(Path file) implements ServerStderr {
        /**
         * Checks the file is given.
         *
         * @throws NullPointerException when {@code file} is null
         */
        public AppendTo {
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * See {@link #to(OutputStream)}.
     *
     * @param out the caller's stream
     */
    record ToStream(OutputStream out) implements ServerStderr {
        /**
         * Checks the stream is given.
         *
         * @throws NullPointerException when {@code out} is null
         */
        public ToStream {
            Objects.requireNonNull(out, "out");
        }
    }
}
