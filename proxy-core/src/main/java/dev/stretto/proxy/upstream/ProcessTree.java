package dev.stretto.proxy.upstream;

import dev.stretto.proxy.ServerEnd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.stretto.proxy.logging.Logger;

/**
 * A child process and every descendant seen while it ran, and the processes the server left
 * behind when their parent exited, known by the server's mark (see {@link ChildReaper}): those
 * re-parented to this JVM once it is a child subreaper, and, for a server started before it
 * was one (or when it never is, as in the CLI), those re-parented to init, found by a look at
 * every process: so nothing the server started outlives the session, from its first instant. Descendants are remembered when they are signalled, because
 * once the child is gone its orphans can no longer be found through it; ending the tree
 * forcibly then still reaches them. Thread-safe.
 *
 * <p>Whoever ends the tree waits until it is gone: dead, not merely signalled. The JDK calls a
 * process alive until it has been reaped, and a process that died is a zombie until its parent
 * collects it. The child itself is waited for until the JDK has collected it (at once, its
 * reaper thread waits for it), so that the JDK calls it dead when this returns; an orphan
 * re-parented to this JVM is collected here; the child's other descendants are collected by
 * whoever inherits them (init, which in a container may take a second, or never), so for them
 * a zombie counts as gone ({@link #isGone}).
 */
final class ProcessTree {

    /** The most {@link #kill()} waits for SIGKILLed processes to be gone (they go at once, bar a stuck kernel call). */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);

    // How often a zombie (which the JDK calls alive, and whose onExit never completes while
    // its parent lives) is looked at again while the tree is waited for.
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final ProcessHandle root;
    private final ChildReaper subreaper;
    private final String mark;
    // Started before the JVM was a child subreaper: its orphans of that time went to init.
    private final boolean lookEverywhere;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    // Whether the child itself got SIGTERM, or SIGKILL, while it was alive.
    private volatile boolean terminated;
    private volatile boolean killed;
    // Set once end() has seen all of the tree gone.
    private volatile boolean ended;

    /** The tree of {@code server}, whose orphans {@code subreaper} finds by the server's mark. */
    ProcessTree(ChildReaper.Server server, ChildReaper subreaper) {
        this.root = server.process().toHandle();
        this.subreaper = subreaper;
        this.mark = server.mark();
        this.lookEverywhere = server.beforeActive();
    }

    /** The child and its descendants now alive, remembered for later. */
    private List<ProcessHandle> members() {
        // Once the child has exited its children belong to another parent, so a scan of every
        // process on the machine (which is what descendants() is) would find nothing; with
        // hundreds of sessions in one JVM it would make each session's end cost them all.
        if (root.isAlive()) {
            root.descendants().forEach(seen::add);
        }
        seen.addAll(subreaper.orphans(mark));
        if (lookEverywhere) {
            seen.addAll(subreaper.marked(mark, root.pid()));
        }
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        for (ProcessHandle h : seen) {
            if (h.isAlive()) {
                all.add(h);
            }
        }
        return all;
    }

    /** Asks the whole tree to end (SIGTERM on POSIX). */
    void terminate() {
        // The descendants are collected before any signal, so the order does not decide who
        // is reached. The child goes first: its status then tells of the signal, not of a
        // shell that exited normally because its own child was killed a moment earlier.
        List<ProcessHandle> all = members();
        terminated |= root.isAlive();
        all.forEach(ProcessHandle::destroy);
    }

    /**
     * Ends the whole tree at once (SIGKILL on POSIX) and returns once all of it is gone, or
     * after {@link #KILL_WAIT}. Not interruptible: a caller that is being stopped must still
     * see the tree gone when this returns (the interrupt status is kept).
     */
    void kill() {
        List<ProcessHandle> all = members();
        killed |= root.isAlive();
        all.forEach(ProcessHandle::destroyForcibly);
        boolean interrupted = false;
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        while (true) {
            try {
                if (!awaitGone(all, deadline)) {
                    Logger.debug("some of the server's processes were still there {} after SIGKILL", KILL_WAIT);
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when the child and every remembered descendant are gone within {@code timeout}. */
    boolean awaitAllExited(Duration timeout) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(seen);
        all.add(root);
        return awaitGone(all, System.nanoTime() + timeout.toNanos());
    }

    private boolean awaitGone(List<ProcessHandle> all, long deadline) throws InterruptedException {
        for (ProcessHandle h : all) {
            while (h.equals(root) ? h.isAlive() : !gone(h)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    h.onExit().get(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // Not yet reaped: look again.
                }
            }
        }
        return true;
    }

    // A descendant that has ended: an orphan of this JVM is collected here first.
    private boolean gone(ProcessHandle h) {
        if (!isGone(h)) {
            return false;
        }
        subreaper.reapIfOrphaned(h);
        return true;
    }

    /**
     * Whether {@code h} has ended: the JDK no longer sees it alive, or it is a zombie (dead,
     * waiting for its parent to collect it; told by its state in {@code /proc}, where there is one).
     */
    static boolean isGone(ProcessHandle h) {
        if (!h.isAlive()) {
            return true;
        }
        ProcStat stat = ProcStat.of(h.pid());
        // No such file: gone since (the file went with it), or no /proc here: the JDK's word stands.
        return stat == null ? !h.isAlive() : stat.zombie();
    }

    /**
     * How the child itself ended: {@link ServerEnd#KILLED} once it got SIGKILL while alive,
     * else {@link ServerEnd#TERMINATED} once it got SIGTERM, else {@link ServerEnd#FINISHED}.
     */
    ServerEnd childEnd() {
        return killed ? ServerEnd.KILLED : terminated ? ServerEnd.TERMINATED : ServerEnd.FINISHED;
    }

    /** Whether anything of the tree is still alive. */
    boolean anyAlive() {
        return root.isAlive() || seen.stream().anyMatch(ProcessHandle::isAlive);
    }

    /**
     * Ends at once whatever may be left of the tree ({@link #kill()}), unless {@link #end} has
     * already seen all of it gone and nothing remembered is alive.
     */
    void abort() {
        if (!ended || anyAlive()) {
            kill();
        }
    }

    /**
     * Ends whatever is left of the tree: SIGTERM to every member still alive, and SIGKILL to
     * those still alive {@code termGrace} later. Returns at once when nothing is left, else
     * once all of it is gone.
     */
    void end(Duration termGrace) throws InterruptedException {
        List<ProcessHandle> alive = members().stream().filter(ProcessHandle::isAlive).toList();
        if (!alive.isEmpty()) {
            terminated |= alive.contains(root);
            alive.forEach(ProcessHandle::destroy);
            if (!awaitAllExited(termGrace)) {
                kill();
            }
        }
        ended = true;
    }
}
