package dev.stretto.proxy.oracle;

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

    /** The three modes, named on the command line in lower case ({@code --oracle jev|replay|mock}). */
    enum Mode {
        /** Cached answers, else ask the service and cache its answer. */
        JEV,
        /** Cached answers only; a miss is an error. */
        REPLAY,
        /** Fixed answers, never cached. */
        MOCK;

        /** The mode's name on the command line: {@code jev}, {@code replay} or {@code mock}. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The mode named {@code name} on the command line ({@code jev}, {@code replay}, {@code mock}), if any. */
        public static java.util.Optional<Mode> named(String name) {
            for (Mode m : values()) {
                if (m.wireName().equals(name)) {
                    return java.util.Optional.of(m);
                }
            }
            return java.util.Optional.empty();
        }
    }

    /**
     * The oracle of a mode. Only {@link Mode#JEV} uses the settings (it makes its HTTP client
     * here, so a bad certificate file fails now, not at the first question).
     *
     * @throws IllegalArgumentException if the settings' extra roots cannot be loaded
     */
    static Oracle of(Mode mode, OracleCache cache, OracleSettings settings) {
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
