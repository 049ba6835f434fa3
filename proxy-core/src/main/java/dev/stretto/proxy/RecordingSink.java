package dev.stretto.proxy;

import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import java.io.IOException;

/**
 * Where a session's recording goes: its header, then every line that crossed the proxy as a
 * log entry, in the order the proxy read them. The session log file ({@link
 * ProxyConfig.Builder#record}) is one such sink; {@link MemoryRecording} keeps a session in
 * memory; a program may add its own ({@link ProxyConfig.Builder#recordTo}), to put sessions in
 * its own store. Give each session sinks of its own.
 *
 * <p>What a sink gets is what the session log file holds: entries stamped with {@code t_ms},
 * {@code from} one of client, server, proxy and context, each line as a JSON message or raw
 * text (see {@link dev.stretto.trace.log.LineClassifier}), and secrets the proxy sends the
 * server itself (HTTP header values, URL credentials) replaced by {@code <redacted>} when the
 * server echoes them; {@link LogEntry#toJson()} gives the log file's line.
 *
 * <p>Threads. {@link #open} (and {@link #discard}, and with record-sync the first {@link
 * #sync}) run on the thread that runs {@link Proxy#run}, before the server starts. {@link
 * #entry}, {@link #flush}, {@link #sync} and {@link #close} then run on the session's log
 * writer, one thread, one call at a time, off the forwarding path: a slow sink makes the proxy
 * wait only once 1,024 lines (or 64 MB) are queued for it, and nothing is ever dropped for
 * it; with record-sync, each line waits for its {@link #sync} before it is forwarded. A sink
 * that throws from {@link #entry}, {@link #flush} or {@link #sync} is reported once on stderr
 * ({@code toString()} names it there) and gets nothing more but its {@link #close}; forwarding
 * goes on, as do the other sinks.
 */
public interface RecordingSink {

    /**
     * The session starts: its header (the log file's first line). Called once, before
     * anything else.
     *
     * @param header the session's header
     * @throws IOException when the sink cannot take the session; the session then does not
     *                     start ({@link Proxy#run} throws {@link ProxyStartException})
     */
    void open(LogHeader header) throws IOException;

    /**
     * One line of the session, in log order.
     *
     * @param entry the line's entry, as the log file has it
     * @throws IOException when the sink cannot take it: it is reported, and the sink gets
     *                     nothing more but its {@link #close}
     */
    void entry(LogEntry entry) throws IOException;

    /**
     * No entry waits at the moment: a sink that buffers writes out what it holds, so that a
     * crash loses as little as possible. By default nothing.
     *
     * @throws IOException when that fails: as for {@link #entry}
     */
    default void flush() throws IOException {
    }

    /**
     * With {@link ProxyConfig.Builder#recordSync record-sync}: makes the header and every entry
     * given so far durable (the log file forces them to disk). Called after {@link #open} (a
     * sink that throws there stops the session before the server starts, as from {@link
     * #open}), then after each group of entries: the lines of those entries are forwarded only
     * once it returns. By default {@link #flush}.
     *
     * @throws IOException when the sink cannot make them durable: it is reported
     */
    default void sync() throws IOException {
        flush();
    }

    /**
     * The session has ended: no more entries. Called once, after the last {@link #entry}.
     *
     * @throws IOException when the sink cannot finish the recording: it is reported
     */
    void close() throws IOException;

    /**
     * The session did not start after all (its server could not be started): nothing of it is
     * to be kept. Called instead of {@link #close}. By default {@link #close}.
     *
     * @throws IOException when that fails; the session's start failure is thrown all the same
     */
    default void discard() throws IOException {
        close();
    }
}
