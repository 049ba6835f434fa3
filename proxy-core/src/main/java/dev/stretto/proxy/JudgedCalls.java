package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The confirmation judge's judgments placed on a session's calls, for {@code stretto show}.
 * A confirm log line names the call by its tool and arguments only, so each judgment, in log
 * order, goes to the first call not yet judged with the same tool and arguments that the
 * judge could have seen: one the guards did not refuse (the judge runs after them), the
 * agent's own or one a commit made. A call a commit never made because the judge refused it
 * has no call of its own: its judgment goes to that commit. What matches nothing (a log cut
 * short) is kept apart.
 */
public final class JudgedCalls {

    private final Map<Timeline.Call, List<ConfirmLog.Judged>> byCall = new IdentityHashMap<>();
    private final List<ConfirmLog.Judged> unplaced = new ArrayList<>();
    private final List<ConfirmLog.Judged> all;

    private JudgedCalls(List<ConfirmLog.Judged> all) {
        this.all = List.copyOf(all);
    }

    /** No judgments: a session without a confirm log. */
    public static final JudgedCalls NONE = new JudgedCalls(List.of());

    /**
     * Places judgments on a session's calls.
     *
     * @param timeline  the session
     * @param judgments its confirm log's judgments, in log order
     * @return the judgments by call
     */
    public static JudgedCalls of(Timeline timeline, List<ConfirmLog.Judged> judgments) {
        JudgedCalls placed = new JudgedCalls(judgments);
        for (ConfirmLog.Judged j : judgments) {
            Timeline.Call call = placed.firstUnjudged(timeline, j);
            if (call == null) {
                call = placed.commitThatRefused(timeline, j);
            }
            if (call == null) {
                placed.unplaced.add(j);
            } else {
                placed.byCall.computeIfAbsent(call, c -> new ArrayList<>()).add(j);
            }
        }
        return placed;
    }

    /**
     * The judgments of one call.
     *
     * @param call a call of the timeline
     * @return its judgments, in log order (several only for a commit); none for a call the judge
     *         did not judge
     */
    public List<ConfirmLog.Judged> of(Timeline.Call call) {
        return byCall.getOrDefault(call, List.of());
    }

    /**
     * The judgments no call of the log matches (a log cut short).
     *
     * @return them, in log order
     */
    public List<ConfirmLog.Judged> unplaced() {
        return unplaced;
    }

    /**
     * How many judgments there are.
     *
     * @return placed or not
     */
    public int count() {
        return all.size();
    }

    /**
     * How many of them refused their call.
     *
     * @return the refusals
     */
    public long refused() {
        return all.stream().filter(ConfirmLog.Judged::refused).count();
    }

    private Timeline.Call firstUnjudged(Timeline timeline, ConfirmLog.Judged j) {
        String args = CanonicalJson.write(j.arguments());
        for (Timeline.Call c : timeline.calls()) {
            if (!c.isCommit() && c.name().equals(j.tool()) && CanonicalJson.write(c.arguments()).equals(args)
                    && !refusedByTheGuards(c) && !byCall.containsKey(c)) {
                return c;
            }
        }
        return null;
    }

    private static boolean refusedByTheGuards(Timeline.Call c) {
        return c.isRefused() && !c.result().content().contains("(confirmation judge: ");
    }

    // A commit stops at its first refusal: it holds one refused judgment at most.
    private Timeline.Call commitThatRefused(Timeline timeline, ConfirmLog.Judged j) {
        if (!j.refused()) {
            return null;
        }
        for (Timeline.Call c : timeline.calls()) {
            if (c.isCommit() && commits(c.arguments(), j)
                    && of(c).stream().noneMatch(ConfirmLog.Judged::refused)) {
                return c;
            }
        }
        return null;
    }

    private static boolean commits(JsonNode commitArguments, ConfirmLog.Judged j) {
        String args = CanonicalJson.write(j.arguments());
        for (JsonNode call : commitArguments.path("calls")) {
            JsonNode a = call.has("arguments") ? call.get("arguments") : CanonicalJson.parse("{}");
            if (j.tool().equals(call.path("name").asText()) && CanonicalJson.write(a).equals(args)) {
                return true;
            }
        }
        return false;
    }
}
