package dev.stretto.proxy;

import dev.stretto.proxy.upstream.ChildReaper;

/**
 * Makes this JVM a child subreaper (Linux, {@code prctl(PR_SET_CHILD_SUBREAPER)}, called
 * through the FFM API): a process a server leaves behind when its parent exits (a background
 * job of a shell that exited, a daemon that detached itself) is then re-parented to this JVM
 * instead of to init, so the session can still find it and end it with the server's tree.
 *
 * <p>This is a setting of the whole process, so proxy-core never enables it by itself: the
 * {@code stretto-proxy} command does, and a program that embeds the proxy may opt in by
 * creating one instance, calling {@link #enable()} and passing it to every session's
 * configuration ({@link ProxyConfig.Builder#subreaper}). While it is active, every child of
 * the JVM that was not started through it counts as a process some server left behind: opt in
 * only in a program whose child processes are all started by proxy sessions. The JVM needs
 * {@code --enable-native-access=ALL-UNNAMED} (or the module's name) for it.
 *
 * <p>Orphans re-parented to the JVM stay zombies after they exit until someone waits for
 * them; the JDK only waits for the processes it started. So the orphans found (when a session
 * ends a tree, or at {@link #reapOrphans()}) are reaped, each by its own pid, once it has
 * exited, and never a process the JDK started: the server's exit status stays the JDK's.
 *
 * <p>Where the setting is not available (not Linux, or prctl fails) {@link #enable()} says so
 * at debug level and everything goes on as without it. Thread-safe.
 */
public final class Subreaper {
    private final ChildReaper reaper = new ChildReaper();

    /** A subreaper that is not yet active: {@link #enable()} makes it so. */
    public Subreaper() {
    }

    /**
     * Makes this JVM a child subreaper. Takes a moment the first time (the FFM linker starts
     * up), so a program that cares about its start-up may call it on a thread of its own:
     * until it returns, sessions simply work as without it.
     *
     * @return true when the JVM is now a child subreaper
     */
    public boolean enable() {
        return reaper.enable();
    }

    /**
     * Runs {@code task} once a first server has been started through this instance, on the
     * thread that started it, or at once if one has been already (never, if none is). A
     * program that starts a session at once may wait for it before calling {@link #enable()}:
     * the FFM linker's start-up then no longer holds up the server's start. {@code task}
     * should be quick (start a thread, count a latch down).
     */
    public void afterFirstStart(Runnable task) {
        reaper.afterFirstStart(task);
    }

    /** Whether this JVM is a child subreaper, through this instance. */
    public boolean active() {
        return reaper.active();
    }

    /**
     * Reaps the processes re-parented to this JVM that have exited, and watches the others so
     * that each is reaped as it exits. Sessions do this whenever they end a server's tree; a
     * program whose servers keep detaching short-lived processes calls it now and then as
     * well (the CLI does, every few seconds), or their zombies wait for the session's end.
     * Does nothing unless active.
     */
    public void reapOrphans() {
        reaper.reapOrphans();
    }

    /** What the sessions' child servers are started through. */
    ChildReaper reaper() {
        return reaper;
    }
}
