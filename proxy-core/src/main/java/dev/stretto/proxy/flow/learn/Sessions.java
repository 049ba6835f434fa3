package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.trace.episode.Episode;
import java.util.List;
import java.util.Map;

/**
 * What learning reads from the session logs: one episode per session (after merging the logs
 * of several servers), each its own task with its reward, the tools and their kinds, and the
 * tools' input contracts.
 *
 * @param episodes  the episodes, in session order
 * @param manifest  the tools and their kinds
 * @param contracts each tool's input contract, sorted
 */
public record Sessions(List<Episode> episodes, FlowManifest manifest, Map<String, String> contracts) {

    /** Copies the lists. */
    public Sessions {
        episodes = List.copyOf(episodes);
        contracts = Map.copyOf(contracts);
    }

    /** The tasks in order of first appearance (every session is its own task). */
    public List<String> tasks() {
        return episodes.stream().map(Episode::taskId).distinct().toList();
    }
}
