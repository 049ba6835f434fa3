package dev.stretto.cli.console.index;

import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.FileState;
import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.Scan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow files under the roots, each read once per change, and the sessions served or
 * shadowed with each. A flow log does not name its flow file, so a session is matched to every
 * flow that could have been the one: of its domain, learned before the session started, and
 * knowing every tool its flow log names.
 */
public final class FlowCatalog {

    /**
     * One flow file.
     *
     * @param key      its key
     * @param report   what flow-show prints of it, or null when it cannot be read
     * @param problem  why it cannot be read, or null
     * @param sessions the sessions served or shadowed with it, newest first
     */
    public record Entry(FileKey key, FlowReport report, String problem, List<SessionSummary> sessions) {
        /** Copies the sessions. */
        public Entry {
            sessions = List.copyOf(sessions);
        }
    }

    private record Cached(FileState state, FlowReport report, String problem) {
    }

    private final ProxyEngine engine;
    private final Map<FileKey, Cached> cache = new HashMap<>();

    /**
     * An empty catalog.
     *
     * @param engine reads flow files
     */
    public FlowCatalog(ProxyEngine engine) {
        this.engine = engine;
    }

    /**
     * The flows of a snapshot, in key order.
     *
     * @param snapshot the sessions and files as the index saw them
     * @return each flow with its sessions
     */
    public synchronized List<Entry> flows(SessionIndex.Snapshot snapshot) {
        List<Entry> out = new ArrayList<>();
        Map<FileKey, Cached> seen = new HashMap<>();
        for (Scan.FlowFound f : snapshot.scan().flows()) {
            Cached c = cache.get(f.key());
            if (c == null || !c.state().equals(f.state())) {
                try {
                    c = new Cached(f.state(), engine.flow(f.path(), f.key().name()), null);
                } catch (IOException e) {
                    c = new Cached(f.state(), null, problem(e, f.path()));
                } catch (RuntimeException e) {
                    c = new Cached(f.state(), null, "cannot be read: " + e.getMessage());
                }
            }
            seen.put(f.key(), c);
            List<SessionSummary> sessions = c.report() == null ? List.of() : servedWith(c.report(), snapshot);
            out.add(new Entry(f.key(), c.report(), c.problem(), sessions));
        }
        cache.keySet().retainAll(seen.keySet());
        cache.putAll(seen);
        return out;
    }

    private static List<SessionSummary> servedWith(FlowReport flow, SessionIndex.Snapshot snapshot) {
        List<SessionSummary> out = new ArrayList<>();
        for (SessionSummary s : snapshot.newestFirst()) {
            if ((s.modes().contains(Mode.FLOW) || s.modes().contains(Mode.SHADOW)) && flow.domain().equals(s.domain())
                    && s.startedUnixMs() >= flow.compiledUnixMs() && flow.tools().containsAll(s.flowTools())) {
                out.add(s);
            }
        }
        return out;
    }

    private static String problem(IOException e, java.nio.file.Path file) {
        String m = e.getMessage() != null ? e.getMessage() : Scan.describe(e);
        return m.replace(file.toString(), file.getFileName().toString());
    }
}
