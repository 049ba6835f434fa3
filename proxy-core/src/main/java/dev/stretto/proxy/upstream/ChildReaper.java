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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import dev.stretto.proxy.logging.Logger;

/**
 * What {@link dev.stretto.proxy.Subreaper} does (see it for what a child subreaper is and when
 * to opt in): makes this JVM one ({@code prctl(PR_SET_CHILD_SUBREAPER)} through the FFM API),
 * starts the sessions' servers so that they are never taken for orphans, finds the orphans
 * re-parented to the JVM, and reaps each once it has exited, by its own pid ({@code
 * waitpid(pid, WNOHANG)}), never a process the JDK started (the server's exit status stays the
 * JDK's to collect). Where the setting is not available (not Linux, or prctl fails) {@link
 * #enable()} says so at debug level and everything goes on as without it. Thread-safe.
 */
public final class ChildReaper {
    private static final int PR_SET_CHILD_SUBREAPER = 36;
    private static final int WNOHANG = 1;

    private final ReentrantLock startLock = new ReentrantLock();
    // The JDK's own children (the servers), never taken for orphans nor reaped here.
    private final Set<Long> started = ConcurrentHashMap.newKeySet();
    // Orphans whose exit is already awaited, to be reaped once.
    private final Set<Long> watched = ConcurrentHashMap.newKeySet();
    // Completed once the first server has been started through this instance.
    private final CompletableFuture<Void> firstStart = new CompletableFuture<>();
    private volatile boolean active;
    // Made on first use: creating a downcall handle costs a noticeable part of start-up.
    private volatile MethodHandle waitpid;

    /** One that is not yet active: {@link #enable()} makes it so. */
    public ChildReaper() {
    }

    /** See {@link dev.stretto.proxy.Subreaper#enable()}. */
    public boolean enable() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
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
        orphans();
    }

    /**
     * Starts {@code pb}'s process, remembered as one the JDK started (so never taken for an
     * orphan, and never reaped here).
     */
    Process start(ProcessBuilder pb) throws IOException {
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
        return process;
    }

    /** See {@link dev.stretto.proxy.Subreaper#afterFirstStart(Runnable)}. */
    public void afterFirstStart(Runnable task) {
        firstStart.thenRun(task);
    }

    /**
     * The processes re-parented to this JVM and their descendants: the children it did not
     * start. Empty unless active. Each is reaped here once it has exited.
     */
    List<ProcessHandle> orphans() {
        if (!active) {
            return List.of();
        }
        List<ProcessHandle> adopted;
        // Not while a server is being started: for a moment it is a child not yet remembered.
        startLock.lock();
        try {
            adopted = ProcessHandle.current().children().filter(h -> !started.contains(h.pid())).toList();
        } finally {
            startLock.unlock();
        }
        List<ProcessHandle> all = new ArrayList<>(adopted);
        for (ProcessHandle orphan : adopted) {
            orphan.descendants().forEach(all::add);
            if (watched.add(orphan.pid())) {
                orphan.onExit().thenRun(Logger.carry(() -> reap(orphan.pid())));
            }
        }
        return all;
    }

    // Called once the orphan has exited (the JDK waits for it without reaping, as it is not
    // one it started); collects its status so that no zombie is left.
    private void reap(long pid) {
        watched.remove(pid);
        if (started.contains(pid)) {
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
