package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.judge.ConfirmLogFile;
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
final class JudgedCalls {

    private final Map<Timeline.Call, List<ConfirmLogFile.Judged>> byCall = new IdentityHashMap<>();
    private final List<ConfirmLogFile.Judged> unplaced = new ArrayList<>();
    private final List<ConfirmLogFile.Judged> all;

    private JudgedCalls(List<ConfirmLogFile.Judged> all) {
        this.all = List.copyOf(all);
    }

    /** No judgments: a session without a confirm log. */
    static final JudgedCalls NONE = new JudgedCalls(List.of());

    /** Places {@code judgments} on the calls of {@code timeline}. */
    static JudgedCalls of(Timeline timeline, List<ConfirmLogFile.Judged> judgments) {
        JudgedCalls placed = new JudgedCalls(judgments);
        for (ConfirmLogFile.Judged j : judgments) {
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

    /** The judgments of {@code call}, in log order (several only for a commit). */
    List<ConfirmLogFile.Judged> of(Timeline.Call call) {
        return byCall.getOrDefault(call, List.of());
    }

    /** The judgments no call of the log matches. */
    List<ConfirmLogFile.Judged> unplaced() {
        return unplaced;
    }

    /** How many judgments there are. */
    int count() {
        return all.size();
    }

    /** How many of them refused their call. */
    long refused() {
        return all.stream().filter(ConfirmLogFile.Judged::refused).count();
    }

    private Timeline.Call firstUnjudged(Timeline timeline, ConfirmLogFile.Judged j) {
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
    private Timeline.Call commitThatRefused(Timeline timeline, ConfirmLogFile.Judged j) {
        if (!j.refused()) {
            return null;
        }
        for (Timeline.Call c : timeline.calls()) {
            if (c.isCommit() && commits(c.arguments(), j)
                    && of(c).stream().noneMatch(ConfirmLogFile.Judged::refused)) {
                return c;
            }
        }
        return null;
    }

    private static boolean commits(JsonNode commitArguments, ConfirmLogFile.Judged j) {
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
