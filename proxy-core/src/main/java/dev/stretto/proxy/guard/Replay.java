package dev.stretto.proxy.guard;

import dev.stretto.trace.episode.TimelineBuilder;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A recorded session's writes put through a domain's guards, each against the session as it
 * stood just before the write (the conversation logged before it included), as the proxy
 * checks a call live: what {@code stretto guards} prints.
 */
public final class Replay {

    /**
     * One write and the guards' judgement on it.
     *
     * @param tMs       when the call was logged
     * @param from      who made it: the agent ({@link Source#CLIENT}) or the proxy (a commit's call)
     * @param call      the call
     * @param judgement every applicable rule's verdict
     */
    public record Write(long tMs, Source from, ToolCall call, Judgement judgement) {
    }

    private Replay() {
    }

    /** The session's calls that {@code guards} check, each with its judgement, in log order. */
    public static List<Write> of(SessionLog log, Guards guards) {
        TimelineBuilder timeline = new TimelineBuilder(log.header());
        Facts facts = new Facts();
        List<Write> writes = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            Optional<ToolCall> call = toolCall(e);
            if (call.isPresent() && guards.checks(call.get().name())) {
                facts.update(timeline.events());
                writes.add(new Write(e.tMs(), e.from(), call.get(), guards.check(call.get(), facts)));
            }
            timeline.add(e);
        }
        return writes;
    }

    /** The entry's {@code tools/call} request from the agent or the proxy, if it is one. */
    private static Optional<ToolCall> toolCall(LogEntry e) {
        if (e.from() != Source.CLIENT && e.from() != Source.PROXY || !(e.payload() instanceof Payload.Message m)) {
            return Optional.empty();
        }
        return m.tree().flatMap(ToolCall::ofRequest);
    }
}
