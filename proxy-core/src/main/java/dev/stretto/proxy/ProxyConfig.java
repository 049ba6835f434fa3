package dev.stretto.proxy;

import dev.stretto.proxy.active.ActiveMode;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything one proxy session needs, built in code: by the CLI from its arguments and
 * environment, or by a program that embeds the proxy. Use {@link #builder(UpstreamSpec)}.
 *
 * @param upstream   the server to proxy
 * @param recordDir  where to write the session log ({@code --record}); a leading {@code ~} is
 *                   expanded with {@link HostEnvironment#home()}; null records nothing
 * @param recordSync each line is in the log on disk before it is forwarded ({@code
 *                   --record-sync}): forced to disk by the log file, {@link RecordingSink#sync()
 *                   synced} by every sink, so that after a crash of the process or of the machine
 *                   every line the host or the server got is in the log (see {@link
 *                   Builder#recordSync})
 * @param domain     copied into the log header ({@code --domain}), or null
 * @param agentModel copied into the log header ({@code --agent-model}), or null
 * @param retainDays delete the proxy's files older than this many days from {@code recordDir},
 *                   and the answers of the cache the session's oracle uses ({@code jev} or
 *                   {@code replay}), when the session starts ({@code --retain-days}), or null to
 *                   keep them all
 * @param host       PATH, home, host session and parent process, as the caller found them
 *                   ({@link HostEnvironment#current()}, the JVM's own, unless the builder was
 *                   given others)
 * @param shutdown   the shutdown ladder's timings for a child server
 * @param clock      the wall clock for the session id and {@code started_unix_ms}
 * @param subreaper  the JVM's {@link Subreaper}, through which the processes a child server
 *                   leaves behind are found by its mark (enabled or not; the CLI gives one it
 *                   never enables), or null (the default) for none: they are then found only
 *                   while the server runs
 * @param active     active mode (guards, the commit tool, the conversation file; with the
 *                   project's own commands' settings also a served flow and the confirmation
 *                   judge), or null for passive mode, which only forwards and records
 * @param sinks      where the session is recorded besides {@code recordDir}: a program's own
 *                   {@link RecordingSink}s, each for this one session
 * @param listener   what watches the session as it runs, or null
 * @param messages   where the proxy's own messages about the session go (see {@link
 *                   ProxyMessages}); stderr at {@link ProxyMessages.Level#INFO} by default
 */
public record ProxyConfig(UpstreamSpec upstream, Path recordDir, boolean recordSync, String domain, String agentModel,
                          Integer retainDays, HostEnvironment host, ShutdownTimings shutdown,
                          InstantSource clock, Subreaper subreaper, ActiveSettings active,
                          List<RecordingSink> sinks, SessionListener listener, ProxyMessages messages) {

    /**
     * Checks the configuration; {@link #builder(UpstreamSpec)} is the usual way to make one.
     *
     * @throws IllegalArgumentException when {@code retainDays} is negative, or given with neither
     *                                  a {@code recordDir} nor an oracle with a cache; when
     *                                  {@code recordSync} is given with neither a {@code
     *                                  recordDir} nor a sink; or when {@code active} switches
     *                                  nothing on or names a domain without guards
     */
    public ProxyConfig {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdown, "shutdown");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(messages, "messages");
        sinks = List.copyOf(sinks);
        if (recordSync && recordDir == null && sinks.isEmpty()) {
            throw new IllegalArgumentException("recordSync needs a record directory or a recording sink");
        }
        if (retainDays != null && retainDays < 0) {
            throw new IllegalArgumentException("retainDays must not be negative");
        }
        // Settings a program implemented itself are checked as the builder checks its own.
        ActiveMode mode = active == null ? null : ActiveMode.of(active);
        if (retainDays != null && recordDir == null
                && (mode == null || mode.oracle() == null || mode.oracle().cacheInUse().isEmpty())) {
            throw new IllegalArgumentException("retainDays needs a record directory or an oracle cache");
        }
    }

    /**
     * A builder for a session with {@code upstream}; everything else starts unset or default.
     *
     * @param upstream the server to proxy
     * @return the builder
     */
    public static Builder builder(UpstreamSpec upstream) {
        return new Builder(upstream);
    }

    /** Builds a {@link ProxyConfig}. Not thread-safe. */
    public static final class Builder {
        private final UpstreamSpec upstream;
        private Path recordDir;
        private boolean recordSync;
        private String domain;
        private String agentModel;
        private Integer retainDays;
        private HostEnvironment host;
        private ShutdownTimings shutdown = ShutdownTimings.DEFAULT;
        private InstantSource clock = InstantSource.system();
        private Subreaper subreaper;
        private ActiveSettings active;
        private final List<RecordingSink> sinks = new ArrayList<>();
        private SessionListener listener;
        private ProxyMessages messages;

        private Builder(UpstreamSpec upstream) {
            this.upstream = Objects.requireNonNull(upstream, "upstream");
        }

        /**
         * Records the session to a new log in {@code dir} ({@code --record}).
         *
         * @param dir the record directory, created if missing (a leading {@code ~} is the home
         *            directory of {@link #host}); null records nothing to a file
         * @return this builder
         */
        public Builder record(Path dir) {
            this.recordDir = dir;
            return this;
        }

        /**
         * With {@code true}, each line is written to the log and forced to disk ({@code fsync})
         * before it is forwarded, in both directions ({@code --record-sync}); every sink is
         * {@link RecordingSink#sync() synced} likewise. Lines queued together are forced
         * together (group commit), so a burst costs one force, but every line waits for one:
         * a session is as fast as the disk forces. Without it (the default) the log is written
         * behind the forwarding, and a crash of the process can lose the lines still queued
         * for the log (up to 1,024 lines or 64 MiB) and 256 KiB of buffered entries; a crash of
         * the machine, whatever the kernel had not yet written. Needs a {@link #record}
         * directory or a {@link #recordTo} sink.
         *
         * @param sync whether each line waits for the disk before it is forwarded
         * @return this builder
         */
        public Builder recordSync(boolean sync) {
            this.recordSync = sync;
            return this;
        }

        /**
         * The log header's {@code domain} ({@code --domain}).
         *
         * @param domain the domain, or null for none
         * @return this builder
         */
        public Builder domain(String domain) {
            this.domain = domain;
            return this;
        }

        /**
         * The log header's {@code agent_model} ({@code --agent-model}).
         *
         * @param agentModel the agent's model, or null for none
         * @return this builder
         */
        public Builder agentModel(String agentModel) {
            this.agentModel = agentModel;
            return this;
        }

        /**
         * Deletes the proxy's files older than {@code days} days from the record directory, and
         * the oracle cache's answers as old, at start ({@code --retain-days}).
         *
         * @param days how many days files are kept, 0 or more
         * @return this builder
         */
        public Builder retainDays(int days) {
            this.retainDays = days;
            return this;
        }

        /**
         * The caller's PATH, home, host session and parent process; by default the JVM's own
         * ({@link HostEnvironment#current()}, read when the configuration is built).
         *
         * @param host the facts, or null for the JVM's own
         * @return this builder
         */
        public Builder host(HostEnvironment host) {
            this.host = host;
            return this;
        }

        /**
         * The shutdown ladder's timings; by default {@link ShutdownTimings#DEFAULT}.
         *
         * @param shutdown the timings
         * @return this builder
         */
        public Builder shutdown(ShutdownTimings shutdown) {
            this.shutdown = shutdown;
            return this;
        }

        /**
         * The wall clock for the session id and the header's start time; by default the
         * system's (tests pass a fixed one).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /**
         * The JVM's {@link Subreaper}: processes a child server leaves behind are then found by
         * the server's mark and ended with its tree (among every process of the JVM's user, or,
         * once the program has enabled it, among the JVM's children). Without it (the default)
         * they are found only while the server runs, and the server's environment is left as it
         * is.
         *
         * @param subreaper the program's one subreaper, or null for none
         * @return this builder
         */
        public Builder subreaper(Subreaper subreaper) {
            this.subreaper = subreaper;
            return this;
        }

        /**
         * Active mode: guards, the commit tool, the conversation file (see {@link ActiveSettings}).
         * Replaces active mode given before.
         *
         * @param settings the settings, or null (the default) for passive mode
         * @return this builder
         */
        public Builder active(ActiveSettings settings) {
            this.active = settings;
            return this;
        }

        /**
         * Records the session to {@code sink} too (as well as to a {@link #record} directory,
         * and to other sinks given before); a {@link MemoryRecording}, say. The sink is for
         * this session only.
         *
         * @param sink where the session is recorded
         * @return this builder
         */
        public Builder recordTo(RecordingSink sink) {
            this.sinks.add(Objects.requireNonNull(sink, "sink"));
            return this;
        }

        /**
         * Has {@code listener} watch the session as it runs (replaces one given before).
         *
         * @param listener the listener, or null for none
         * @return this builder
         */
        public Builder listener(SessionListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * Where the proxy's own messages about the session go, instead of stderr at {@link
         * ProxyMessages.Level#INFO} (replaces a handler given before; null for that default).
         *
         * @param messages the session's handler, or null
         * @return this builder
         */
        public Builder messages(ProxyMessages messages) {
            this.messages = messages;
            return this;
        }

        /**
         * The configuration.
         *
         * @return the configuration, with the JVM's {@link HostEnvironment} unless one was given
         * @throws IllegalArgumentException when the configuration is not one a session can run:
         *                                  {@code retainDays} without a record directory or an
         *                                  oracle cache, or active settings that switch nothing
         *                                  on or name a domain without guards
         */
        public ProxyConfig build() {
            return new ProxyConfig(upstream, recordDir, recordSync, domain, agentModel, retainDays,
                    host != null ? host : HostEnvironment.current(), shutdown, clock,
                    subreaper, active, sinks, listener,
                    messages != null ? messages : StderrMessages.at(ProxyMessages.Level.INFO));
        }
    }
}
