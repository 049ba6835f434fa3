package dev.stretto.proxy.oracle;

import dev.stretto.proxy.OracleMode;

/**
 * Answers System-One requests, in one of three modes ({@code --oracle jev|replay|mock}):
 * {@link JevOracle} asks the service through the cache, {@link ReplayOracle} answers from the
 * cache only, {@link MockOracle} answers every question the same fixed way.
 *
 * <p>{@link #ask(Request)} blocks, possibly for minutes (the service's retries); call it from
 * a thread of its own, never from the session's actor. Oracles are safe to use from several
 * threads at once.
 */
public sealed interface Oracle extends AutoCloseable permits JevOracle, ReplayOracle, MockOracle {

    /**
     * The oracle of a mode. Only {@link OracleMode#JEV} uses the settings (it makes its HTTP client
     * here, so a bad certificate file fails now, not at the first question).
     *
     * @throws IllegalArgumentException if the settings' extra roots cannot be loaded
     */
    static Oracle of(OracleMode mode, OracleCache cache, ServiceSettings settings) {
        return switch (mode) {
            case JEV -> new JevOracle(cache, new SystemOneClient(settings));
            case REPLAY -> new ReplayOracle(cache);
            case MOCK -> new MockOracle();
        };
    }

    /**
     * The cache this oracle answers from ({@code jev} and {@code replay}; {@code mock} uses
     * none): the one {@code --retain-days} prunes.
     */
    default java.util.Optional<OracleCache> cacheInUse() {
        return switch (this) {
            case JevOracle j -> java.util.Optional.of(j.cache());
            case ReplayOracle r -> java.util.Optional.of(r.cache());
            case MockOracle m -> java.util.Optional.empty();
        };
    }

    /**
     * Answers {@code request}.
     *
     * @throws OracleException      when there is no answer; its message is the reason
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    Response ask(Request request) throws InterruptedException;

    /** Releases what the oracle holds (the HTTP client of {@link JevOracle}). */
    @Override
    default void close() {
    }
}
