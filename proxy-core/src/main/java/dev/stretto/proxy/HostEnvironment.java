package dev.stretto.proxy;

import java.nio.file.Path;
import java.util.Map;

/**
 * The facts about the proxy's surroundings that a session needs: read by the caller (the CLI
 * reads its environment and process tree; an embedding program may state them as it likes,
 * {@link ProxyConfig.Builder#host}), or, when the configuration gives none, taken from the
 * JVM's own environment ({@link #current()}).
 *
 * @param path           the {@code PATH} the server command is looked up on (used in the
 *                       message when it is not found), or null when unknown
 * @param home           the home directory a leading {@code ~} of {@code --record} expands
 *                       to, or null when unknown
 * @param strettoSession the value of {@code STRETTO_SESSION}, or null when not set
 * @param parentPid      the process id of the proxy's parent (the MCP host), or -1 when unknown
 */
public record HostEnvironment(String path, Path home, String strettoSession, long parentPid) {

    /** Nothing known: no PATH, no home, no host session variable, no parent. */
    public static final HostEnvironment UNKNOWN = new HostEnvironment(null, null, null, -1);

    /**
     * The facts as found in an environment map ({@code PATH}, {@code HOME}, falling back to
     * {@code USERPROFILE}, and {@code STRETTO_SESSION}) and a parent process id.
     *
     * @param env       environment variables, as {@link System#getenv()} gives them
     * @param parentPid the MCP host's process id, or -1 when unknown
     * @return the facts
     */
    public static HostEnvironment of(Map<String, String> env, long parentPid) {
        String home = nonBlank(env.get("HOME"));
        if (home == null) {
            home = nonBlank(env.get("USERPROFILE"));
        }
        return new HostEnvironment(env.get("PATH"), home == null ? null : Path.of(home),
                nonBlank(env.get("STRETTO_SESSION")), parentPid);
    }

    /**
     * The JVM's own surroundings, what a session takes when its configuration gives none: this
     * process's environment variables ({@link System#getenv()}), read now, and no parent (the
     * program that embeds the proxy is itself the host, and no other process is known as it).
     *
     * @return the facts of this JVM
     */
    public static HostEnvironment current() {
        return of(System.getenv(), -1);
    }

    /**
     * The session of the host this proxy serves, as the log header records it:
     * {@code STRETTO_SESSION} when set, else {@code host-<parent pid>}, else null.
     *
     * @return the host session, or null
     */
    public String hostSession() {
        if (strettoSession != null) {
            return strettoSession;
        }
        return parentPid >= 0 ? "host-" + parentPid : null;
    }

    /**
     * A path the host gave (a directory to record in, a file to read or write): a leading
     * {@code ~} on its own replaced by {@link #home()}, made absolute so messages name it in
     * full. Hosts start the proxy without a shell, in a directory nobody chose, so nothing else
     * expands it.
     *
     * @param path the path as the host gave it
     * @param what what the path is, for messages ({@code "record directory"})
     * @param kind {@code "directory"} or {@code "file"}, for messages
     * @return the path in full
     * @throws IllegalArgumentException for {@code ~user}, or a {@code ~} with no home known,
     *                                  saying so
     */
    public Path resolve(Path path, String what, String kind) {
        if (startsWithOtherUsersHome(path)) {
            throw new IllegalArgumentException("cannot use the " + what + " " + path + ": only a leading ~ on its own"
                    + " (the home directory) is expanded, not ~user; give the " + kind + "'s full path");
        }
        if (startsWithTilde(path)) {
            if (home == null) {
                throw new IllegalArgumentException("cannot expand ~ in the " + what + " " + path
                        + ": the home directory is not known (HOME is not set)");
            }
            path = path.getNameCount() == 1 ? home : home.resolve(path.subpath(1, path.getNameCount()));
        }
        return path.toAbsolutePath();
    }

    // ~user would need the user database; taken literally it would make a directory named
    // "~user" in whatever directory the host started the proxy in.
    private static boolean startsWithOtherUsersHome(Path path) {
        if (path.isAbsolute() || path.getNameCount() == 0) {
            return false;
        }
        String first = path.getName(0).toString();
        return first.length() > 1 && first.startsWith("~");
    }

    private static boolean startsWithTilde(Path path) {
        return !path.isAbsolute() && path.getNameCount() > 0 && path.getName(0).toString().equals("~");
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
