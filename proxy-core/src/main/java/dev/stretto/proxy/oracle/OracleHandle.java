package dev.stretto.proxy.oracle;

import dev.stretto.proxy.OracleMode;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An oracle as the API hands it out ({@code OracleSettings.open()}): who answers, the model its
 * questions name, whether it has a key to ask the service with, and the oracle that answers.
 * Sessions, learning and promoting take the oracle out of it with {@link #of}.
 *
 * @param mode   who answers
 * @param model  the model id every question names
 * @param hasKey whether {@link OracleMode#JEV} has a key (without one only cached answers come)
 * @param oracle the oracle that answers
 */
public record OracleHandle(OracleMode mode, String model, boolean hasKey, Oracle oracle)
        implements dev.stretto.proxy.Oracle {

    /** Checks the parts. */
    public OracleHandle {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(oracle, "oracle");
    }

    /**
     * Opens an oracle.
     *
     * @param cache the answer cache, or null for {@link OracleMode#MOCK}
     * @throws IllegalArgumentException when the service's extra roots cannot be loaded
     */
    public static OracleHandle open(OracleMode mode, Path cache, ServiceSettings service) {
        OracleCache answers = cache == null ? null : new OracleCache(cache);
        return new OracleHandle(mode, service.model(), service.apiKey() != null, Oracle.of(mode, answers, service));
    }

    /**
     * The handle of an oracle the API opened.
     *
     * @throws IllegalArgumentException when a program made {@code oracle} itself
     */
    public static OracleHandle of(dev.stretto.proxy.Oracle oracle) {
        if (oracle instanceof OracleHandle h) {
            return h;
        }
        throw new IllegalArgumentException("an oracle must be opened with OracleSettings.open(), not made by a program ("
                + oracle.getClass().getName() + ")");
    }

    /** The directory of the cache it answers from, or null for {@link OracleMode#MOCK}. */
    public Path cacheDirectory() {
        return oracle.cacheInUse().map(OracleCache::directory).orElse(null);
    }

    @Override
    public void close() {
        oracle.close();
    }
}
