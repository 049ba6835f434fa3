package dev.stretto.cli.learn;

import dev.stretto.cli.learn.bindings.BindingTables;
import dev.stretto.cli.learn.features.FeatureMap;
import dev.stretto.cli.learn.habit.BackoffCounts;
import dev.stretto.cli.learn.sessions.LearnManifest;
import java.util.List;
import java.util.SortedMap;

/**
 * Everything the habit-only pipeline learned, before it becomes a flow file.
 *
 * @param sources         the agent models of all sessions, sorted and without repeats
 * @param sessions        how many sessions (episodes after merging) it read
 * @param habitEpisodes   how many successful sessions trained the habit
 * @param vocab           the actions
 * @param manifest        the tools, their kinds and docs
 * @param map             the code features
 * @param alpha           the habit's alpha (also its beta and reach's alpha)
 * @param habit           the habit's counts
 * @param sites           where lookups may follow
 * @param bindings        the binding statistics
 * @param contracts       the tools' input contracts
 * @param reach           the reach decider's counts
 */
public record LearnedFlow(List<String> sources, int sessions, int habitEpisodes, Vocab vocab, LearnManifest manifest,
                          FeatureMap map, double alpha, BackoffCounts habit, Sites sites, BindingTables bindings,
                          SortedMap<String, String> contracts, BackoffCounts reach) {

    public LearnedFlow {
        sources = List.copyOf(sources);
    }
}
