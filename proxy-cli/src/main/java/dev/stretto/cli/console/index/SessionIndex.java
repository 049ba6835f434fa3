package dev.stretto.cli.console.index;

import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.DirectoryWatch;
import dev.stretto.cli.console.source.Found;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.Root;
import dev.stretto.cli.console.source.Scan;
import dev.stretto.cli.console.source.SessionRead;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Every session under the console's roots, kept in memory. The first {@link #refresh()} walks
 * the roots and reads every log, on as many threads as there are cores; later ones ask the file
 * system which directories changed since (a {@link DirectoryWatch}), list only those again, and
 * read only the logs that changed, appeared, or whose flow or judge log did. So after the first
 * load a listing costs a filter of what is in memory, not a walk, let alone a read of every log.
 * The roots are still walked whole every half minute, for file systems that send no notices. A
 * log that cannot be read is kept as a row that says why.
 */
public final class SessionIndex implements AutoCloseable {

    /**
     * The sessions as one refresh left them.
     *
     * @param newestFirst every session, newest first
     * @param found       each session's files, by key
     * @param scan        the walk the refresh made
     * @param read        how many files the refresh read (new or changed since the one before)
     */
    public record Snapshot(List<SessionSummary> newestFirst, Map<FileKey, Found> found, Scan scan, int read) {
        /** Copies the collections. */
        public Snapshot {
            newestFirst = List.copyOf(newestFirst);
            found = Map.copyOf(found);
        }
    }

    /** A file kept in the cache; {@code summary} is null for a file that is no session log. */
    private record Cached(Found found, SessionSummary summary) {
    }

    /** The name the proxy gives a session log: the session id and {@code .jsonl}. */
    private static final java.util.regex.Pattern PROXY_NAME =
            java.util.regex.Pattern.compile("\\d{8}T\\d{6}\\.\\d{3}Z-\\d+(?:-\\d+)?\\.jsonl");

    private static final Comparator<SessionSummary> NEWEST_FIRST = Comparator
            .comparingLong(SessionSummary::startedUnixMs).reversed()
            .thenComparing(SessionSummary::session, Comparator.reverseOrder())
            .thenComparing(SessionSummary::key);

    /**
     * How often the roots are walked whole even when the watch heard of no change: a file system
     * that sends no notices (a network share) still shows its changes within this time.
     */
    static final long FULL_WALK_NS = TimeUnit.SECONDS.toNanos(30);

    private final List<Root> roots;
    private final ProxyEngine engine;
    private final int threads;
    private final DirectoryWatch watch = new DirectoryWatch();
    private long lastWalk;
    private Map<FileKey, Cached> cache = new HashMap<>();
    private Snapshot last;

    /**
     * An index not loaded yet.
     *
     * @param roots  the directories
     * @param engine reads the flow and judge logs
     */
    public SessionIndex(List<Root> roots, ProxyEngine engine) {
        this.roots = List.copyOf(roots);
        this.engine = Objects.requireNonNull(engine, "engine");
        this.threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** Stops watching the directories. */
    @Override
    public void close() {
        watch.close();
    }

    /** {@return the directories read} */
    public List<Root> roots() {
        return roots;
    }

    /**
     * Walks the roots and reads what changed.
     *
     * @return the sessions now
     */
    public synchronized Snapshot refresh() {
        Scan scan;
        Set<Path> changed = last == null ? null : watch.changed();
        boolean missingRoot = roots.stream().anyMatch(r -> !Files.isDirectory(r.path()));
        if (changed == null || missingRoot || System.nanoTime() - lastWalk > FULL_WALK_NS) {
            scan = Scan.of(roots);
            lastWalk = System.nanoTime();
        } else if (changed.isEmpty()) {
            last = new Snapshot(last.newestFirst(), last.found(), last.scan(), 0);
            return last;
        } else {
            scan = last.scan().update(changed);
        }
        // What changed in a directory between its listing and its watch is found by listing it again.
        Set<Path> added = watch.watch(scan.directories());
        if (last != null && !added.isEmpty()) {
            scan = scan.update(added);
        }
        Map<FileKey, Cached> next = new HashMap<>(scan.sessions().size() * 2);
        List<Found> toRead = new ArrayList<>();
        for (Found f : scan.sessions()) {
            Cached c = cache.get(f.key());
            if (c != null && c.found().equals(f)) {
                next.put(f.key(), c);
            } else {
                toRead.add(f);
            }
        }
        for (Cached c : read(toRead)) {
            next.put(c.found().key(), c);
        }
        cache = next;
        List<SessionSummary> rows = new ArrayList<>(next.size());
        Map<FileKey, Found> found = new HashMap<>(next.size() * 2);
        for (Cached c : next.values()) {
            if (c.summary() != null) {
                rows.add(c.summary());
                found.put(c.found().key(), c.found());
            }
        }
        rows.sort(NEWEST_FIRST);
        last = new Snapshot(rows, found, scan, toRead.size());
        return last;
    }

    /** {@return the sessions as the last refresh left them, refreshing first if there was none} */
    public synchronized Snapshot snapshot() {
        return last != null ? last : refresh();
    }

    private List<Cached> read(List<Found> files) {
        if (files.size() < 32 || threads == 1) {
            return files.stream().map(this::read).toList();
        }
        List<Cached> out = new ArrayList<>(files.size());
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<List<Cached>>> parts = new ArrayList<>();
            int per = (files.size() + threads - 1) / threads;
            for (int i = 0; i < files.size(); i += per) {
                List<Found> part = files.subList(i, Math.min(files.size(), i + per));
                parts.add(pool.submit(() -> part.stream().map(this::read).toList()));
            }
            for (Future<List<Cached>> p : parts) {
                out.addAll(p.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the logs", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        return out;
    }

    private Cached read(Found f) {
        SessionSummary s;
        try {
            s = SessionSummary.of(SessionRead.of(f, engine));
        } catch (dev.stretto.trace.log.LogFormatException e) {
            // Another tool's JSON lines (a conversation file, a host's output) are not listed;
            // a file named as the proxy names its logs is, with what is wrong with it.
            s = e.line() == 1 && !PROXY_NAME.matcher(f.key().name()).matches() ? null
                    : SessionSummary.unreadable(f, problem(e));
        } catch (IOException e) {
            s = SessionSummary.unreadable(f, problem(e));
        } catch (RuntimeException e) {
            // Whatever a hostile file does to a reader, the page still lists it, with the reason.
            s = SessionSummary.unreadable(f, "cannot be read: " + e);
        }
        return new Cached(f, s);
    }

    private static String problem(IOException e) {
        if (e instanceof dev.stretto.trace.log.LogFormatException f) {
            return "line " + f.line() + ": " + f.reason();
        }
        return Scan.describe(e);
    }

    /**
     * One page of the sessions a filter passes, newest first, after a refresh.
     *
     * @param filter what to show
     * @return the page
     */
    public Listing list(SessionFilter filter) {
        Snapshot snap = refresh();
        List<SessionSummary> matched = new ArrayList<>();
        Map<String, Integer> domains = new TreeMap<>();
        int unreadable = 0;
        for (SessionSummary s : snap.newestFirst()) {
            if (s.domain() != null) {
                domains.merge(s.domain(), 1, Integer::sum);
            }
            if (!s.readable()) {
                unreadable++;
            }
            if (filter.matches(s)) {
                matched.add(s);
            }
        }
        int pages = Math.max(1, (matched.size() + SessionFilter.PAGE_SIZE - 1) / SessionFilter.PAGE_SIZE);
        int page = Math.min(filter.page(), pages);
        int from = (page - 1) * SessionFilter.PAGE_SIZE;
        List<SessionSummary> rows = matched.subList(from, Math.min(matched.size(), from + SessionFilter.PAGE_SIZE));
        return new Listing(filter, rows, matched.size(), snap.newestFirst().size(), page, pages, domains, unreadable,
                snap.scan().problems());
    }

    /**
     * The session a key names, if the roots hold it now.
     *
     * @param key the key
     * @return the session's files, or null
     */
    public Found find(FileKey key) {
        Found f = snapshot().found().get(key);
        if (f == null) {
            f = refresh().found().get(key);
        }
        return f;
    }
}
