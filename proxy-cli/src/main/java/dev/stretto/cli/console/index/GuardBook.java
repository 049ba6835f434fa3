package dev.stretto.cli.console.index;

import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.Found;
import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The guards' verdicts on the sessions of each directory, as {@code stretto guards DIR} gives
 * them for the logs directly in DIR: every write of a session of a domain with guards replayed
 * through its rules, each session replayed once per change of its log. Sessions of domains
 * without guards are only counted.
 */
public final class GuardBook {

    /**
     * A directory holding session logs.
     *
     * @param root      the root's number
     * @param directory the directory below the root, {@code ""} for the root itself
     */
    public record Directory(int root, String directory) {
        /** {@return how URLs name it} */
        public String id() {
            return root + ":" + directory;
        }
    }

    /**
     * One session's replay.
     *
     * @param summary the session's row
     * @param replay  the verdicts, or null when the log cannot be read now
     * @param calls   the index in the session's timeline of each write's call, in the order of
     *                the replay's writes (-1 when not found), for links to the call
     */
    public record Replayed(SessionSummary summary, GuardReplay replay, List<Integer> calls) {
        /** Copies the list. */
        public Replayed {
            calls = List.copyOf(calls);
        }
    }

    /**
     * A directory's verdicts.
     *
     * @param directory the directory
     * @param replayed  the sessions of domains with guards, oldest first as stretto guards
     *                  reads them (by file name)
     * @param unguarded how many sessions each domain without guards has here (null domain as
     *                  {@code ""})
     * @param sessions  how many sessions the directory holds
     */
    public record Report(Directory directory, List<Replayed> replayed, Map<String, Integer> unguarded, int sessions) {
        /** Copies the collections. */
        public Report {
            replayed = List.copyOf(replayed);
            unguarded = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unguarded));
        }
    }

    private record Cached(Found found, Replayed replayed) {
    }

    private final ProxyEngine engine;
    private final Map<FileKey, Cached> cache = new HashMap<>();

    /**
     * An empty book.
     *
     * @param engine replays sessions
     */
    public GuardBook(ProxyEngine engine) {
        this.engine = engine;
    }

    /**
     * The directories of a snapshot that hold session logs, with how many each holds.
     *
     * @param snapshot the index's sessions
     * @return the directories, in key order
     */
    public static Map<Directory, Integer> directories(SessionIndex.Snapshot snapshot) {
        Map<Directory, Integer> dirs = new java.util.TreeMap<>(java.util.Comparator.comparingInt(Directory::root)
                .thenComparing(Directory::directory));
        for (SessionSummary s : snapshot.newestFirst()) {
            dirs.merge(new Directory(s.key().root(), s.key().directory()), 1, Integer::sum);
        }
        return dirs;
    }

    /**
     * The verdicts on one directory's sessions.
     *
     * @param snapshot the index's sessions
     * @param dir      the directory
     * @return its report
     */
    public synchronized Report report(SessionIndex.Snapshot snapshot, Directory dir) {
        List<SessionSummary> here = new ArrayList<>();
        for (SessionSummary s : snapshot.newestFirst()) {
            if (s.key().root() == dir.root() && s.key().directory().equals(dir.directory())) {
                here.add(s);
            }
        }
        here.sort(java.util.Comparator.comparing(SessionSummary::key));
        List<Replayed> replayed = new ArrayList<>();
        Map<String, Integer> unguarded = new java.util.TreeMap<>();
        java.util.Set<String> guarded = engine.guardedDomains();
        for (SessionSummary s : here) {
            if (!s.readable() || s.domain() == null || !guarded.contains(s.domain())) {
                unguarded.merge(s.readable() ? s.domain() == null ? "" : s.domain() : "(cannot be read)", 1,
                        Integer::sum);
                continue;
            }
            Found f = snapshot.found().get(s.key());
            Cached c = cache.get(s.key());
            if (c == null || !c.found().equals(f)) {
                c = new Cached(f, replay(s, f));
                cache.put(s.key(), c);
            }
            replayed.add(c.replayed());
        }
        return new Report(dir, replayed, unguarded, here.size());
    }

    private Replayed replay(SessionSummary s, Found f) {
        SessionLog log;
        try {
            log = SessionLog.parse(SessionRead.readFile(f.path()), f.key().relative());
        } catch (IOException e) {
            return new Replayed(s, null, List.of());
        }
        GuardReplay replay = engine.guards(log);
        List<Timeline.Call> calls = Timeline.of(log).calls();
        List<Integer> at = new ArrayList<>();
        for (GuardReplay.Write w : replay.writes()) {
            int found = -1;
            for (int i = 0; i < calls.size(); i++) {
                if (calls.get(i).id().equals(w.callId()) && calls.get(i).sentMs() == w.tMs()) {
                    found = i;
                    break;
                }
            }
            at.add(found);
        }
        return new Replayed(s, replay, at);
    }
}
