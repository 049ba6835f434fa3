package dev.stretto.cli.init;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * What {@code stretto init} reads of its surroundings, so that tests give their own: the home
 * directory (for {@code ~} and the hosts' usual files), the working directory (for relative
 * paths and the project files of Claude Code and VS Code), the operating system, the
 * environment, the stretto-proxy an entry runs, and the clock that names backups.
 *
 * @param proxy the absolute path of the stretto-proxy that entries run, or null when it is not
 *              known (then the entry names {@code stretto-proxy}, found on the host's PATH)
 */
record InitContext(Path home, Path workingDir, HostOs os, Map<String, String> env, String proxy, Clock clock) {

    /**
     * This process's: HOME (else {@code user.home}), {@code user.dir}, and the stretto-proxy the
     * launcher names in the system property {@code stretto.proxy}.
     */
    static InitContext ofProcess(Map<String, String> env) {
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        String proxy = System.getProperty("stretto.proxy");
        return new InitContext(Path.of(home), Path.of(System.getProperty("user.dir")), HostOs.current(), env,
                proxy == null || proxy.isEmpty() ? null : proxy, Clock.systemUTC());
    }

    /** {@code path} with a leading {@code ~} expanded and made absolute against the working directory. */
    Path resolve(String path) {
        if (path.equals("~")) {
            return home;
        }
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2));
        }
        return workingDir.resolve(path).normalize();
    }
}
