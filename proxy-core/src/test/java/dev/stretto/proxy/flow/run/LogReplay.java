package dev.stretto.proxy.flow.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.wire.LookupRequest;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drives a {@link FlowSession} over a recorded session log as the proxy's owner of
 * active-mode state would have while recording it: a run starts at each server response with a
 * result to an agent's call, decides on the episode of the log so far cut at the run's call,
 * and each lookup it asks for must be the proxy's next request in the log, whose logged
 * response it then gets. A reply with appended lookups must be the proxy's logged reply.
 */
final class LogReplay {

    private final SessionLog log;
    private final FlowSession session;
    private int lookupsSent;

    LogReplay(SessionLog log, FlowSession session) {
        this.log = log;
        this.session = session;
    }

    /** The number of lookups the runs made. */
    int run() {
        List<LogEntry> entries = log.entries();
        Map<String, String> agentCalls = new HashMap<>();
        Set<String> listings = new HashSet<>();
        for (int k = 0; k < entries.size(); k++) {
            JsonNode m = message(entries.get(k));
            if (m == null) {
                continue;
            }
            Source from = entries.get(k).from();
            String id = m.hasNonNull("id") ? key(m.get("id")) : null;
            String method = m.path("method").asText(null);
            if (from == Source.CLIENT && "tools/call".equals(method)) {
                agentCalls.put(id, m.path("params").path("name").asText());
            } else if (from == Source.CLIENT && "tools/list".equals(method)) {
                listings.add(id);
            } else if (from == Source.SERVER && method == null && id != null) {
                if (listings.remove(id) && m.has("result")) {
                    session.listed(m.get("result"));
                }
                String tool = agentCalls.remove(id);
                if (tool != null && m.has("result") && session.mayStart()) {
                    k = runAt(k, m.get("id"), tool, m);
                }
            }
        }
        return lookupsSent;
    }

    private int runAt(int k, JsonNode after, String tool, JsonNode response) {
        FlowRun run = session.startRun(after, tool, response);
        int at = k;
        RunStep step = run.decide(cut(at, run.cutAt()));
        while (true) {
            switch (step) {
                case RunStep.Lookup lookup -> {
                    lookupsSent++;
                    String id = LookupRequest.id(lookupsSent);
                    int sent = next(at, Source.PROXY, id, true);
                    assertEquals(LookupRequest.line(lookupsSent, lookup.tool(), lookup.arguments()),
                            ((Payload.Message) log.entries().get(sent).payload()).json(), "the lookup sent");
                    at = next(sent, Source.SERVER, id, false);
                    run.answered(id, message(log.entries().get(at)));
                    step = run.decide(cut(at, run.cutAt()));
                }
                case RunStep.Ask ask -> fail("habit and reach never ask: " + ask);
                case RunStep.Finished done -> {
                    if (done.reply() != null) {
                        int replied = next(at, Source.PROXY, key(after), false);
                        assertEquals(((Payload.Message) log.entries().get(replied).payload()).json(), done.reply(),
                                "the reply with the lookups appended");
                    }
                    return at;
                }
            }
        }
    }

    /** The episode of the log up to entry {@code last}, cut at call {@code callId}. */
    private EpisodeCut cut(int last, String callId) {
        SessionLog prefix = new SessionLog(log.header(), log.entries().subList(0, last + 1));
        return EpisodeCut.afterCall(Episode.of(prefix), callId).orElseThrow();
    }

    /** The index of the next entry after {@code from} from {@code source} with that id, request or response. */
    private int next(int from, Source source, String id, boolean request) {
        for (int j = from + 1; j < log.entries().size(); j++) {
            JsonNode m = message(log.entries().get(j));
            if (log.entries().get(j).from() == source && m != null && m.hasNonNull("id") && key(m.get("id")).equals(id)
                    && m.has("method") == request) {
                return j;
            }
        }
        fail("no " + source.wireName() + (request ? " request " : " response ") + id + " after entry " + from);
        return -1;
    }

    private static JsonNode message(LogEntry e) {
        return e.payload() instanceof Payload.Message m ? m.tree().orElse(null) : null;
    }

    private static String key(JsonNode id) {
        assertNotNull(id);
        return id.isTextual() ? id.textValue() : CanonicalJson.write(id);
    }
}
