package dev.stretto.cli.console.source;

import dev.stretto.trace.episode.Timeline;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The confirmation judge's verdicts on a session, each placed on the call it judged.
 *
 * @param byCall   the verdicts of each call judged, in log order (several only for a commit);
 *                 keyed by identity
 * @param unplaced the verdicts that match no call of the log (a log cut short)
 * @param count    how many verdicts the judge's log holds
 */
public record Judgments(Map<Timeline.Call, List<JudgeVerdict>> byCall, List<JudgeVerdict> unplaced, int count) {

    /** No judge's log. */
    public static final Judgments NONE = new Judgments(Map.of(), List.of(), 0);

    /** Copies the verdicts, keeping identity keys. */
    public Judgments {
        IdentityHashMap<Timeline.Call, List<JudgeVerdict>> copy = new IdentityHashMap<>();
        byCall.forEach((c, v) -> copy.put(c, List.copyOf(v)));
        byCall = java.util.Collections.unmodifiableMap(copy);
        unplaced = List.copyOf(unplaced);
    }

    /**
     * The verdicts of one call.
     *
     * @param call a call of the session
     * @return its verdicts, none when it was not judged
     */
    public List<JudgeVerdict> of(Timeline.Call call) {
        return byCall.getOrDefault(call, List.of());
    }
}
