package dev.stretto.proxy.flow.promote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.FlowRun;
import dev.stretto.proxy.flow.run.FlowSession;
import dev.stretto.proxy.flow.run.RunStep;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A directory of shadow sessions, as stretto-proxy {@code --flow FILE --flow-shadow --record DIR}
 * leaves it (formats 3.8): each session log as recorded (a shadow flow changes nothing on the
 * wire, so the log is the session's own), and next to it the flow log of the shadow run, one
 * decision per agent call marked {@code "shadow": true}, then its run line with value 0. The
 * flow log is made here by driving the served flow over the log the way the proxy's actor
 * does, which is quicker than replaying each session through the proxy.
 */
final class ShadowRecording {

    private ShadowRecording() {
    }

    /**
     * Copies {@code logs} into {@code dir} with a shadow flow log next to each.
     *
     * @return the number of decisions logged
     */
    static int write(Flow flow, List<Path> logs, Path dir) throws Exception {
        Files.createDirectories(dir);
        int decisions = 0;
        for (Path source : logs) {
            Path copy = dir.resolve(source.getFileName());
            Files.copy(source, copy);
            SessionLog log = SessionLog.read(copy);
            List<String> lines = new ArrayList<>();
            FlowSession session = FlowSession.start(flow, "flow.json",
                    new FlowOptions(0.3, null, 8, 40, 300, null, true, null, null), log.session(), lines::add,
                    w -> { throw new AssertionError(w); }, () -> 0L);
            Map<String, String> agentCalls = new HashMap<>();
            List<LogEntry> entries = log.entries();
            for (int k = 0; k < entries.size(); k++) {
                if (!(entries.get(k).payload() instanceof Payload.Message m) || m.tree().isEmpty()) {
                    continue;
                }
                JsonNode msg = m.tree().get();
                JsonNode id = msg.get("id");
                String key = id == null ? null : id.isTextual() ? id.textValue() : CanonicalJson.write(id);
                if (entries.get(k).from() == Source.CLIENT && "tools/call".equals(msg.path("method").asText(null))) {
                    agentCalls.put(key, msg.path("params").path("name").asText());
                } else if (entries.get(k).from() == Source.SERVER && key != null && agentCalls.containsKey(key)
                        && FlowSession.follows(msg) && session.mayStart()) {
                    FlowRun run = session.startRun(id, agentCalls.remove(key), msg);
                    Episode sofar = Episode.of(new SessionLog(log.header(), entries.subList(0, k + 1)));
                    RunStep step = run.decide(EpisodeCut.afterCall(sofar, run.cutAt()).orElseThrow());
                    if (!(step instanceof RunStep.Finished)) {
                        throw new AssertionError("a shadow run decides once and ends: " + step);
                    }
                    decisions++;
                }
            }
            String name = copy.getFileName().toString();
            Files.writeString(dir.resolve(name.substring(0, name.length() - ".jsonl".length()) + ".flow.jsonl"),
                    String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        }
        return decisions;
    }
}
