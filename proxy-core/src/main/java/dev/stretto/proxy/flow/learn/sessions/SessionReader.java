package dev.stretto.proxy.flow.learn.sessions;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The sessions of a {@code --sessions} directory as {@code learn} and {@code promote} read
 * them (stretto-learn section 2): the logs in session order, the logs of several servers that
 * one agent session left merged into one (saying so on stderr), and each session's episode,
 * its own task.
 */
public final class SessionReader {

    private SessionReader() {
    }

    /**
     * The logs of {@code dir}, merged.
     *
     * @throws FlowException when the directory holds no session log
     * @throws IOException   when the directory or a log cannot be read (the message names it)
     */
    public static List<SessionLog> read(Path dir, Progress progress) throws IOException, FlowException {
        int files = SessionDirectory.count(dir);
        progress.start("reading " + files + " session logs", files);
        List<SessionLog> logs = SessionDirectory.read(dir, progress::update);
        if (logs.isEmpty()) {
            throw new FlowException("no session logs (*.jsonl) in " + dir + ": record some with stretto-proxy"
                    + " --record DIR");
        }
        progress.line("read " + logs.size() + " session logs from " + dir);
        return merge(logs, progress);
    }

    /**
     * Logs given in memory, in session order and merged.
     *
     * @throws FlowException when there are none
     */
    public static List<SessionLog> of(List<SessionLog> logs, Progress progress) throws FlowException {
        if (logs.isEmpty()) {
            throw new FlowException("no session logs to learn from: record some (stretto-proxy --record DIR, or a"
                    + " RecordingSink)");
        }
        List<SessionLog> sorted = new ArrayList<>(logs);
        sorted.sort(Comparator.comparing(SessionLog::session, ByteOrder.STRINGS));
        return merge(sorted, progress);
    }

    /** The logs of several servers that one agent session left, merged into one (saying so). */
    private static List<SessionLog> merge(List<SessionLog> logs, Progress progress) {
        ServerMerge.Result merged = ServerMerge.merge(logs);
        for (String host : merged.keptApart()) {
            progress.line("kept the logs of host session " + host + " apart, as two servers of the same name ran"
                    + " in it at once; name each server with stretto-proxy --server-name, or give each session its"
                    + " own STRETTO_SESSION");
        }
        if (merged.mergedSessions() > 0) {
            progress.line("merged " + merged.mergedLogs() + " logs of several servers into " + merged.mergedSessions()
                    + " sessions, each tool named after its server (server::tool)");
        }
        return merged.logs();
    }

    /**
     * The episode of each session: its own task, in {@code domain}, with the reward of
     * {@code rewards} (1.0 when it has none).
     */
    public static List<Episode> episodes(List<SessionLog> sessions, String domain, Map<String, Double> rewards) {
        List<Episode> episodes = new ArrayList<>(sessions.size());
        for (SessionLog log : sessions) {
            episodes.add(episode(Timeline.of(log), domain, rewards.getOrDefault(log.session(), 1.0)));
        }
        return episodes;
    }

    /** The episode of a session's timeline, its own task. */
    public static Episode episode(Timeline timeline, String domain, double reward) {
        Episode e = timeline.episode();
        return new Episode(e.id(), e.id(), 0, domain, e.agentModel(), reward, e.events());
    }
}
