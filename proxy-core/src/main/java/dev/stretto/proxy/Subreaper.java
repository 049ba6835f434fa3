package dev.stretto.proxy;

import dev.stretto.proxy.upstream.ChildReaper;

/**
 * Finds and ends what the sessions' servers leave behind when their parent exits (a background
 * job of a shell that exited, a daemon that detached itself), and may make this JVM a child
 * subreaper (Linux, {@code prctl(PR_SET_CHILD_SUBREAPER)}, called through the FFM API), so that
 * such processes are re-parented to this JVM instead of to init.
 *
 * <p>A session ends only what descends from its own server. Each server a session with a
 * {@code Subreaper} starts gets a mark of its own in its environment, {@code
 * STRETTO_SERVER_TREE=<mark>} (added to the marks already there, separated by {@code :}, when
 * the JVM itself is some proxy's server), which every process it starts inherits; a process
 * is that session's only while its environment holds that mark. So the program's own child
 * processes, and those of other sessions, are never signalled; a process of the server's that
 * clears its environment before it detaches is not found (it outlives the session). The
 * server's descendants seen while it runs are ended with it, marked or not.
 *
 * <p>Where a server's orphans are looked for. For a server started before {@link #enable()}
 * returned (or without it), what it left behind went to init: when the session ends the
 * server's tree it looks for the mark among every process of the JVM's user ({@code
 * /proc/<pid>/environ}), which costs a read of each one's environment then and nothing before.
 * That is all the {@code stretto-proxy} command does: it never enables the setting (the FFM
 * linker's start-up costs about 200 ms of processor and 12 MB of resident memory). Once
 * {@link #enable()} has returned, orphans come to the JVM and are found among its children
 * alone, which suits a program that runs many sessions. Enabling is a setting of the whole
 * process, so proxy-core never does it by itself: a program that embeds the proxy opts in by
 * creating one instance, calling {@link #enable()} and passing it to every session's
 * configuration ({@link ProxyConfig.Builder#subreaper}). The JVM needs {@code
 * --enable-native-access=ALL-UNNAMED} (or the module's name) for it.
 *
 * <p>Orphans re-parented to the JVM (once enabled) stay zombies after they exit until someone waits for
 * them; the JDK waits only for the processes it started (and collects their exit status at
 * once). So a session's orphans are reaped, each by its own pid, once they have exited (when
 * the session ends its tree, which is gone when it returns, or at {@link #reapOrphans()}), and
 * so is any other child of the JVM that has been a zombie for a second (an orphan of one of
 * the program's own processes, which nobody else will collect). A process the JDK started is
 * never reaped here: {@code Process.waitFor()} of the program's own children keeps its status.
 *
 * <p>Where the setting is not available (not Linux, or prctl fails) {@link #enable()} says so
 * at debug level and everything goes on as without it. Thread-safe.
 */
public final class Subreaper {
    private final ChildReaper reaper = new ChildReaper();

    /**
     * One that marks the servers it starts and finds what they leave behind by their mark;
     * the JVM is not a child subreaper until {@link #enable()} makes it one.
     */
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
     *
     * @param task what to run
     */
    public void afterFirstStart(Runnable task) {
        reaper.afterFirstStart(task);
    }

    /** {@return whether this JVM is a child subreaper, through this instance} */
    public boolean active() {
        return reaper.active();
    }

    /**
     * Reaps the processes of the sessions' servers re-parented to this JVM that have exited,
     * and watches the others so that each is reaped as it exits; reaps any other child of the
     * JVM that has been a zombie for a second. Sessions do this whenever they end a server's
     * tree; a program whose servers keep detaching short-lived processes calls it now and then
     * as well (every few seconds, say), or their zombies wait for the session's end.
     * Ends nothing. Does nothing unless active.
     */
    public void reapOrphans() {
        reaper.reapOrphans();
    }

    /** What the sessions' child servers are started through. */
    ChildReaper reaper() {
        return reaper;
    }
}
