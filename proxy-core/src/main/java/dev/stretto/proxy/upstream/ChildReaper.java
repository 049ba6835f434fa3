package dev.stretto.proxy.upstream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import dev.stretto.proxy.logging.Logger;

/**
 * What {@link dev.stretto.proxy.Subreaper} does (see it for what a child subreaper is and when
 * to opt in): makes this JVM one ({@code prctl(PR_SET_CHILD_SUBREAPER)} through the FFM API),
 * starts the sessions' servers, finds the orphans of each server re-parented to the JVM, and
 * reaps them once they have exited ({@code waitpid(pid, WNOHANG)}, each by its own pid). Where
 * the setting is not available (not Linux, or prctl fails) {@link #enable()} says so at debug
 * level and everything goes on as without it. Thread-safe.
 *
 * <p>Whose is an orphan. A child of the JVM may be one of the program's own processes, or a
 * process a server left behind. To tell them apart, each server is started with its mark in
 * its environment ({@value #TREE_VARIABLE}, which every process it starts inherits, unless one
 * clears its environment): an orphan is a session's when its environment ({@code
 * /proc/<pid>/environ}) holds that session's server's mark, and only then is it ended with that
 * server's tree. Nothing else is signalled, and no process the JDK started is ever reaped
 * here: the JDK collects the exit status of its own children itself (at once: its reaper
 * thread waits for each). A child that has been a zombie for {@link #ZOMBIE_AGE} is no longer
 * waited for by anyone (a process the JDK started never stays one that long), so it is
 * reaped, whoever's orphan it was, as init would have.
 */
public final class ChildReaper {

    /**
     * The environment variable that carries the marks of the server trees a process belongs
     * to: one mark per server (this JVM's, and those of proxies further up, whose servers
     * started this one), separated by {@code :}.
     */
    public static final String TREE_VARIABLE = "STRETTO_SERVER_TREE";

    /**
     * How long a child of the JVM that the JDK did not start through this instance must have
     * been a zombie before it is reaped although it is not known as a server's.
     */
    static final long ZOMBIE_AGE = TimeUnit.SECONDS.toNanos(1);

    private static final int PR_SET_CHILD_SUBREAPER = 36;
    private static final long SELF = ProcessHandle.current().pid();
    private static final int WNOHANG = 1;

    private final boolean marking;
    // This instance's part of every mark it gives out: the JVM's pid and a random word, so that
    // the marks of no other instance (in this JVM, or a later one with the same pid) are its.
    private final String prefix;
    private final AtomicLong servers = new AtomicLong();
    private final ReentrantLock startLock = new ReentrantLock();
    // The JDK's own children (the servers), never taken for orphans nor reaped here.
    private final Set<Long> started = ConcurrentHashMap.newKeySet();
    // What the environment of each child of the JVM that was alive when looked at said: the
    // server marks it holds (none for a process not of this instance's servers).
    private final Map<ProcessHandle, List<String>> marksOf = new ConcurrentHashMap<>();
    // The children seen as zombies not known to be servers' orphans, and since when (nanoTime).
    private final Map<ProcessHandle, Long> zombieSince = new ConcurrentHashMap<>();
    // Orphans whose exit is already awaited, to be reaped once.
    private final Set<Long> watched = ConcurrentHashMap.newKeySet();
    // Completed once the first server has been started through this instance.
    private final CompletableFuture<Void> firstStart = new CompletableFuture<>();
    private volatile boolean active;
    // Made on first use: creating a downcall handle costs a noticeable part of start-up.
    private volatile MethodHandle waitpid;

    /** One that is not yet active ({@link #enable()} makes it so), and marks the servers it starts. */
    public ChildReaper() {
        this(true);
    }

    private ChildReaper(boolean marking) {
        this.marking = marking && isLinux();
        this.prefix = ProcessHandle.current().pid() + "." + Long.toString(ThreadLocalRandom.current().nextLong()
                >>> 1, 36);
    }

    /**
     * One for sessions without a subreaper: it never becomes active and leaves the servers'
     * environment as it is.
     */
    public static ChildReaper none() {
        return new ChildReaper(false);
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /** See {@link dev.stretto.proxy.Subreaper#enable()}. */
    public boolean enable() {
        if (!isLinux()) {
            Logger.debug("not a child subreaper: only Linux has them; processes a server leaves behind"
                    + " may outlive the session");
            return false;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                    Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
            StructLayout state = Linker.Option.captureStateLayout();
            VarHandle errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment captured = arena.allocate(state);
                int rc = (int) prctl.invokeExact(captured, PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);
                if (rc != 0) {
                    Logger.debug("not a child subreaper: prctl failed (errno {}); processes a server leaves behind"
                            + " may outlive the session", (int) errno.get(captured, 0L));
                    return false;
                }
            }
        } catch (Throwable e) {
            // No native access (--enable-native-access not given), or no prctl in the C library.
            Logger.debug("not a child subreaper: {}; processes a server leaves behind may outlive the session",
                    e.toString());
            return false;
        }
        active = true;
        Logger.debug("this process is a child subreaper: processes a server leaves behind are re-parented to it");
        return true;
    }

    /** Whether this JVM is a child subreaper, through this instance. */
    public boolean active() {
        return active;
    }

    /** See {@link dev.stretto.proxy.Subreaper#reapOrphans()}. */
    public void reapOrphans() {
        if (active) {
            scan(null);
        }
    }

    /**
     * A server started through a reaper.
     *
     * @param process      its process
     * @param mark         the mark its environment carries (null when the reaper marks nothing)
     * @param beforeActive whether it was started before the JVM was a child subreaper: what it
     *                     left behind until then was re-parented to init, and only a look at
     *                     every process finds it ({@link #marked})
     */
    record Server(Process process, String mark, boolean beforeActive) {
    }

    /**
     * Starts {@code pb}'s process, remembered as one the JDK started (so never taken for an
     * orphan, and never reaped here), with a mark of its own in its environment unless this
     * reaper marks nothing.
     */
    Server start(ProcessBuilder pb) throws IOException {
        String mark = null;
        if (marking) {
            mark = prefix + "." + servers.incrementAndGet();
            pb.environment().merge(TREE_VARIABLE, mark, (outer, own) -> outer + ":" + own);
        }
        boolean beforeActive = !active;
        Process process;
        startLock.lock();
        try {
            process = pb.start();
            long pid = process.pid();
            started.add(pid);
            process.onExit().thenRun(() -> started.remove(pid));
        } finally {
            startLock.unlock();
        }
        firstStart.complete(null);
        return new Server(process, mark, beforeActive);
    }

    /** See {@link dev.stretto.proxy.Subreaper#afterFirstStart(Runnable)}. */
    public void afterFirstStart(Runnable task) {
        firstStart.thenRun(task);
    }

    /**
     * The orphans of the server marked {@code mark} (re-parented to this JVM, their environment
     * holding the mark) and their descendants. Empty unless active, or without a mark. Each of
     * them is reaped once it has exited, and so is every child of the JVM that has stayed a
     * zombie for {@link #ZOMBIE_AGE}.
     */
    List<ProcessHandle> orphans(String mark) {
        if (!active || mark == null) {
            return List.of();
        }
        return scan(mark);
    }

    /**
     * Every process on the machine, but {@code root}, whose environment holds {@code mark}, and
     * the descendants of those whose parent does not: what the server marked {@code mark}
     * started, wherever it was re-parented to. This finds what a server left behind before the
     * JVM was a child subreaper (re-parented to init, or to another subreaper), which is why it
     * costs a look at every process's environment ({@code /proc/<pid>/environ}; another user's
     * cannot be read, and is not the server's). Empty without a mark, or off Linux.
     */
    List<ProcessHandle> marked(String mark, long root) {
        if (mark == null || !marking) {
            return List.of();
        }
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path dir : proc) {
                long pid = pidOf(dir.getFileName().toString());
                if (pid > 0 && pid != root && pid != SELF && serverMarks(pid).contains(mark)) {
                    pids.add(pid);
                }
            }
        } catch (IOException | RuntimeException e) {
            Logger.debug("could not look for the server's processes in /proc: {}", e.toString());
            return List.of();
        }
        List<ProcessHandle> all = new ArrayList<>();
        for (long pid : pids) {
            ProcessHandle h = ProcessHandle.of(pid).orElse(null);
            if (h == null) {
                continue;
            }
            all.add(h);
            // The top of a branch: its descendants that cleared their environment are the server's too.
            ProcStat stat = ProcStat.of(pid);
            if (stat != null && !pids.contains(stat.parent())) {
                h.descendants().forEach(all::add);
            }
        }
        return all;
    }

    // A directory name of /proc as a pid, or -1 for the other entries.
    private static long pidOf(String name) {
        if (name.isEmpty() || name.length() > 18) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(name);
    }

    // Looks at every child of the JVM the JDK did not start through this instance: watches
    // those of this instance's servers' trees for their exit, reaps zombies, and returns the
    // orphans marked {@code mark} with their descendants (none for a null mark).
    private List<ProcessHandle> scan(String mark) {
        List<ProcessHandle> children;
        // Not while a server is being started: for a moment it is a child not yet remembered.
        startLock.lock();
        try {
            children = ProcessHandle.current().children().filter(h -> !started.contains(h.pid())).toList();
        } finally {
            startLock.unlock();
        }
        marksOf.keySet().retainAll(children);
        zombieSince.keySet().retainAll(children);
        List<ProcessHandle> all = new ArrayList<>();
        for (ProcessHandle child : children) {
            ProcStat stat = ProcStat.of(child.pid());
            if (stat == null) {
                continue;
            }
            if (stat.zombie()) {
                reapIfAbandoned(child);
                continue;
            }
            List<String> marks = marksOf.computeIfAbsent(child, h -> serverMarks(h.pid()));
            if (isMine(marks)) {
                if (watched.add(child.pid())) {
                    child.onExit().thenRun(Logger.carry(() -> reap(child)));
                }
                if (marks.contains(mark)) {
                    all.add(child);
                    child.descendants().forEach(all::add);
                }
            }
        }
        return all;
    }

    /**
     * Reaps {@code h} now if it is a zombie of this JVM that the JDK did not start: one that a
     * session ended, which {@link ProcessTree} waits to see gone. Does nothing otherwise.
     */
    void reapIfOrphaned(ProcessHandle h) {
        if (active) {
            reap(h);
        }
    }

    private boolean isMine(List<String> marks) {
        return marks.stream().anyMatch(m -> m.startsWith(prefix + "."));
    }

    // A zombie child: one known as a server's orphan is reaped at once, any other once it has
    // stayed a zombie for ZOMBIE_AGE (the JDK, had it started it, would have collected it).
    private void reapIfAbandoned(ProcessHandle zombie) {
        List<String> marks = marksOf.get(zombie);
        if (marks != null && isMine(marks)) {
            reap(zombie);
            return;
        }
        long now = System.nanoTime();
        Long since = zombieSince.putIfAbsent(zombie, now);
        if (since != null && now - since >= ZOMBIE_AGE) {
            reap(zombie);
        }
    }

    /** The server marks in the environment of process {@code pid}: none when it has none or it cannot be read. */
    private static List<String> serverMarks(long pid) {
        byte[] environ;
        try {
            environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        } catch (IOException | RuntimeException e) {
            // Gone, or not ours to read (another user's, a set-user-ID program): not a server's.
            return List.of();
        }
        if (environ.length == 0) {
            return List.of();
        }
        String key = TREE_VARIABLE + "=";
        for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
            if (entry.startsWith(key)) {
                return List.of(entry.substring(key.length()).split(":"));
            }
        }
        return List.of();
    }

    // Collects the status of an orphan that has exited, so that no zombie is left: by its own
    // pid, only while it is still this very process (the handle knows its start time, so a pid
    // taken again since is never touched), a zombie, and a child of the JVM that the JDK did not
    // start through this instance. One at a time, so that no two callers reap the same pid.
    private synchronized void reap(ProcessHandle h) {
        long pid = h.pid();
        watched.remove(pid);
        ProcStat stat = ProcStat.of(pid);
        if (started.contains(pid) || !h.isAlive() || stat == null || !stat.zombie()
                || stat.parent() != ProcessHandle.current().pid()) {
            return;
        }
        try {
            MethodHandle w = waitpid;
            if (w == null) {
                Linker linker = Linker.nativeLinker();
                w = linker.downcallHandle(linker.defaultLookup().find("waitpid").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
                waitpid = w;
            }
            int rc = (int) w.invokeExact((int) pid, MemorySegment.NULL, WNOHANG);
            Logger.trace("reaped orphan {}: {}", pid, rc);
        } catch (Throwable e) {
            Logger.debug("could not reap orphan {}: {}", pid, e.toString());
        }
    }
}
