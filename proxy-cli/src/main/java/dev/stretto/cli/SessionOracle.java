package dev.stretto.cli;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleSettings;
import java.nio.file.Path;

/**
 * The one oracle a session asks, for a flow's arbiter and for the confirmation judge alike:
 * {@code --oracle} over the answer cache of {@code --oracle-cache} ({@code ~} expanded), else
 * {@code ~/.stretto/oracle-cache}, with the settings the environment gives.
 */
final class SessionOracle {

    private SessionOracle() {
    }

    /**
     * The oracle's settings: those the environment gave ({@link OracleEnvironment#read}) over
     * the cache of {@code choice}.
     *
     * @throws IllegalArgumentException with the usage error: a cache directory that cannot be
     *                                  named
     */
    static OracleSettings settings(OracleSettings.Builder fromEnvironment, ProxyOptions.OracleChoice choice,
                                   HostEnvironment host) {
        return fromEnvironment.cache(cacheDirectory(choice.cache(), host)).build();
    }

    /**
     * Opens the oracle; the caller closes it once the session has ended.
     *
     * @throws IllegalArgumentException with the usage error: extra roots that cannot be loaded
     */
    static Oracle open(OracleSettings settings) {
        return settings.open();
    }

    /** {@code --oracle-cache DIR} ({@code ~} expanded), else {@code ~/.stretto/oracle-cache}. */
    private static Path cacheDirectory(Path given, HostEnvironment host) {
        if (given != null) {
            return host.resolve(given, "oracle cache", "directory");
        }
        if (host.home() == null) {
            throw new IllegalArgumentException("the oracle cache is ~/.stretto/oracle-cache by default, but the home"
                    + " directory is not known (HOME is not set): give --oracle-cache DIR");
        }
        return OracleSettings.defaultCache(host.home());
    }
}
