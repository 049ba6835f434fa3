package dev.stretto.proxy.flow.promote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.sessions.SessionReader;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A session as promotion scores it: its episode (its own task), when each call was sent and
 * answered in the log's order, and which calls were the proxy's own lookups (they are not the
 * agent's, so they never count as the agent using a lookup).
 *
 * @param episode    the episode
 * @param sentAt     each call's position in the log (the last request of that id)
 * @param answeredAt each call's first response's position in the log
 * @param lookups    the ids of the proxy's own calls
 */
record ScoredSession(Episode episode, Map<String, Integer> sentAt, Map<String, Integer> answeredAt,
                     Set<String> lookups) {

    ScoredSession {
        Objects.requireNonNull(episode, "episode");
        sentAt = Map.copyOf(sentAt);
        answeredAt = Map.copyOf(answeredAt);
        lookups = Set.copyOf(lookups);
    }

    /** The session of {@code log}, in {@code domain}. */
    static ScoredSession of(SessionLog log, String domain) {
        Timeline timeline = Timeline.of(log);
        Map<String, Integer> sent = new HashMap<>();
        Map<String, Integer> answered = new HashMap<>();
        List<LogEntry> entries = log.entries();
        for (int i = 0; i < entries.size(); i++) {
            LogEntry e = entries.get(i);
            if (!(e.payload() instanceof Payload.Message m) || m.tree().isEmpty() || !m.tree().get().isObject()) {
                continue;
            }
            JsonNode msg = m.tree().get();
            JsonNode id = msg.get("id");
            if (id == null || id.isNull()) {
                continue;
            }
            String key = ToolCall.idText(id); // as the episode spells its calls' ids
            if ((e.from() == Source.CLIENT || e.from() == Source.PROXY)
                    && "tools/call".equals(msg.path("method").asText(null))) {
                sent.put(key, i);
                answered.remove(key);
            } else if ((e.from() == Source.SERVER || e.from() == Source.PROXY) && !msg.has("method")
                    && sent.containsKey(key)) {
                answered.putIfAbsent(key, i);
            }
        }
        Set<String> lookups = new HashSet<>();
        timeline.calls().stream().filter(Timeline.Call::isLookup).forEach(c -> lookups.add(c.id()));
        return new ScoredSession(SessionReader.episode(timeline, domain, 1.0), sent, answered, lookups);
    }

    /**
     * How many of {@code turnCalls} had been answered when {@code call} was sent: the
     * reference's {@code sent_after}.
     */
    int answeredBefore(String call, List<String> turnCalls) {
        Integer sent = sentAt.get(call);
        if (sent == null) {
            return 0;
        }
        int n = 0;
        for (String other : turnCalls) {
            Integer answered = answeredAt.get(other);
            if (answered != null && answered < sent) {
                n++;
            }
        }
        return n;
    }
}
