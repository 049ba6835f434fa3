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
 * @param shutdown   the shutdown ladder's timings for a child server
 * @param clock      the wall clock for the session id and {@code started_unix_ms}
 * @param subreaper  how processes a child server leaves behind are found: through this JVM
 *                   being a child subreaper, when the program made it one (the CLI does), else
 *                   an inactive one (see {@link Subreaper})
 * @param active     active mode (guards, the commit tool, the conversation file, a served
 *                   flow, the confirmation judge), or null for passive mode, which only forwards
 *                   and records; a program sets it with {@link Builder#active(ActiveSettings)}
 * @param sinks      where the session is recorded besides {@code recordDir}: a program's own
 *                   {@link RecordingSink}s, each for this one session
 * @param listener   what watches the session as it runs, or null
 */
public record ProxyConfig(UpstreamSpec upstream, Path recordDir, boolean recordSync, String domain, String agentModel,
                          Integer retainDays, HostEnvironment host, ShutdownTimings shutdown,
                          InstantSource clock, Subreaper subreaper, ActiveMode active,
                          List<RecordingSink> sinks, SessionListener listener) {

    /**
     * @throws IllegalArgumentException when {@code retainDays} is negative, or given with neither
     *                                  a {@code recordDir} nor an oracle with a cache; when
     *                                  {@code recordSync} is given with neither a {@code
     *                                  recordDir} nor a sink
     */
    public ProxyConfig {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdown, "shutdown");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(subreaper, "subreaper");
        sinks = List.copyOf(sinks);
        if (recordSync && recordDir == null && sinks.isEmpty()) {
            throw new IllegalArgumentException("recordSync needs a record directory or a recording sink");
        }
        if (retainDays != null && retainDays < 0) {
            throw new IllegalArgumentException("retainDays must not be negative");
        }
        if (retainDays != null && recordDir == null
                && (active == null || active.oracle() == null || active.oracle().cacheInUse().isEmpty())) {
            throw new IllegalArgumentException("retainDays needs a record directory or an oracle cache");
        }
    }

    /** A builder for a session with {@code upstream}; everything else starts unset or default. */
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
        private HostEnvironment host = HostEnvironment.UNKNOWN;
        private ShutdownTimings shutdown = ShutdownTimings.DEFAULT;
        private InstantSource clock = InstantSource.system();
        private Subreaper subreaper;
        private ActiveMode active;
        private final List<RecordingSink> sinks = new ArrayList<>();
        private SessionListener listener;

        private Builder(UpstreamSpec upstream) {
            this.upstream = Objects.requireNonNull(upstream, "upstream");
        }

        /** Records the session to a new log in {@code dir} (created if missing). */
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
         * the machine, whatever the kernel had not yet written. Needs a {@link #record} directory or a {@link #recordTo} sink.
         */
        public Builder recordSync(boolean sync) {
            this.recordSync = sync;
            return this;
        }

        /** The header's {@code domain}. */
        public Builder domain(String domain) {
            this.domain = domain;
            return this;
        }

        /** The header's {@code agent_model}. */
        public Builder agentModel(String agentModel) {
            this.agentModel = agentModel;
            return this;
        }

        /**
         * Deletes the proxy's files older than {@code days} days from the record directory, and
         * the oracle cache's answers as old, at start.
         */
        public Builder retainDays(int days) {
            this.retainDays = days;
            return this;
        }

        /** The caller's PATH, home, host session and parent process. */
        public Builder host(HostEnvironment host) {
            this.host = host;
            return this;
        }

        /** The shutdown ladder's timings. */
        public Builder shutdown(ShutdownTimings shutdown) {
            this.shutdown = shutdown;
            return this;
        }

        /** The wall clock (tests pass a fixed one). */
        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /**
         * The JVM's {@link Subreaper}, once the program has enabled it: processes a child server
         * leaves behind are then found and ended with its tree. Without it (the default) they
         * are found only while the server runs.
         */
        public Builder subreaper(Subreaper subreaper) {
            this.subreaper = subreaper;
            return this;
        }

        /**
         * Active mode: guards, the commit tool, the conversation file (see {@link ActiveSettings});
         * null (the default) for passive mode. Replaces active mode given before.
         */
        public Builder active(ActiveSettings settings) {
            this.active = settings == null ? null : settings.mode();
            return this;
        }

        /**
         * Active mode in the internal form the project's own commands build, with what {@link
         * ActiveSettings} does not offer: a served flow, the oracle, the confirmation judge.
         * {@code ActiveMode} is not exported by the module, so only a program on the class path
         * can call this; one on the module path uses {@link #active(ActiveSettings)}. Null for
         * passive mode.
         */
        public Builder active(ActiveMode active) {
            this.active = active;
            return this;
        }

        /**
         * Records the session to {@code sink} too (as well as to a {@link #record} directory,
         * and to other sinks given before); a {@link MemoryRecording}, say. The sink is for
         * this session only.
         */
        public Builder recordTo(RecordingSink sink) {
            this.sinks.add(Objects.requireNonNull(sink, "sink"));
            return this;
        }

        /** Has {@code listener} watch the session as it runs (replaces one given before). */
        public Builder listener(SessionListener listener) {
            this.listener = listener;
            return this;
        }

        /** The configuration. */
        public ProxyConfig build() {
            return new ProxyConfig(upstream, recordDir, recordSync, domain, agentModel, retainDays, host, shutdown, clock,
                    subreaper != null ? subreaper : new Subreaper(), active, sinks, listener);
        }
    }
}
