package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.List;
import dev.stretto.proxy.logging.Logger;

/**
 * One call of {@code stretto_commit}: makes its calls in order as the proxy's own requests,
 * each put through the policy checks first, and stops at the first that is refused, fails or
 * gets no answer. Then answers the agent with one text item: each call's part (its result, its
 * failure, its refusal, that it got no answer, or that it was not run), joined by a blank line,
 * marked an error when any call did not succeed. Lives on the actor's thread, moved on by the
 * callbacks of {@link RunContext}.
 */
final class CommitRun {
    private final RunContext run;
    private final JsonNode id;
    private final List<CommitTool.Planned> calls;
    private final List<String> parts = new ArrayList<>();
    private boolean anyFailed;

    CommitRun(RunContext run, JsonNode id, List<CommitTool.Planned> calls) {
        this.run = run;
        this.id = id;
        this.calls = List.copyOf(calls);
    }

    /** Starts with the first call. */
    void start() {
        next(0);
    }

    private void next(int i) {
        if (i == calls.size()) {
            finish(calls.size());
            return;
        }
        CommitTool.Planned p = calls.get(i);
        run.check(new ToolCall(CommitTool.NAME, p.name(), p.arguments()), outcome -> {
            if (outcome instanceof CallCheck.Refused r) {
                Logger.info("refused {}: {}", p.name(), r.reason());
                stop(i, CommitTool.refused(p, r.reason()));
            } else {
                run.request(p.name(), p.arguments(), answer -> answered(i, answer));
            }
        });
    }

    private void answered(int i, OwnRequests.Outcome outcome) {
        CommitTool.Planned p = calls.get(i);
        if (outcome instanceof OwnRequests.Answered a) {
            if (a.answer().failed()) {
                stop(i, CommitTool.failed(p, a.answer().text()));
            } else {
                parts.add(CommitTool.succeeded(p, a.answer().text()));
                next(i + 1);
            }
        } else {
            if (outcome instanceof OwnRequests.TimedOut t) {
                Logger.warn("no answer to {} ({}) within {} s; going on without it", p.name(), t.id(),
                        t.limit().toSeconds());
            }
            stop(i, CommitTool.noAnswer(p));
        }
    }

    /** Call {@code i} did not succeed: its part is {@code part}; the calls after it are not run. */
    private void stop(int i, String part) {
        parts.add(part);
        anyFailed = true;
        finish(i + 1);
    }

    private void finish(int notRunFrom) {
        for (int k = notRunFrom; k < calls.size(); k++) {
            parts.add(CommitTool.notRun(calls.get(k)));
        }
        run.answer(id, String.join("\n\n", parts), anyFailed);
    }
}
