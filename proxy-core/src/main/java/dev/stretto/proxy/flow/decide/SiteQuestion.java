package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.Step;
import dev.stretto.trace.episode.EpisodeCut;
import java.util.List;
import java.util.Objects;

/**
 * What a scorer is asked at a site: how likely each option is.
 *
 * @param cut     the episode cut at the last call, with the calls still pending
 * @param steps   the episode's steps, the site's call last
 * @param history the steps' symbols
 * @param site    the site
 * @param offered the lookups offered there, sorted by name
 * @param taskId  the task id (the arbiter picks its fold by it)
 */
public record SiteQuestion(EpisodeCut cut, List<Step> steps, List<Long> history, Sites.Site site, List<String> offered,
                           String taskId) {

    /** Copies the lists. */
    public SiteQuestion {
        Objects.requireNonNull(cut, "cut");
        steps = List.copyOf(steps);
        history = List.copyOf(history);
        Objects.requireNonNull(site, "site");
        offered = List.copyOf(offered);
        Objects.requireNonNull(taskId, "taskId");
    }
}
