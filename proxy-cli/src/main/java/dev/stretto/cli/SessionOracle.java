package dev.stretto.cli;

import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleSettings;
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
     * Opens the oracle; the caller closes it once the session has ended.
     *
     * @throws IllegalArgumentException with the usage error: a cache directory that cannot be
     *                                  named, extra roots that cannot be loaded
     */
    static Oracle open(ProxyOptions.OracleChoice choice, OracleSettings settings, HostEnvironment host) {
        return Oracle.of(choice.mode(), new OracleCache(cacheDirectory(choice.cache(), host)), settings);
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
        return OracleCache.defaultDirectory(host.home());
    }
}
