package dev.stretto.proxy.flow.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;

/** The JSON-RPC messages of a log in order: batches split, conversation and text lines left out. */
final class LogMessages {

    /**
     * One message.
     *
     * @param from who sent it
     * @param json the message
     */
    record Message(Source from, JsonNode json) {
    }

    private LogMessages() {
    }

    static List<Message> of(SessionLog log) {
        List<Message> messages = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == Source.CONTEXT || !(e.payload() instanceof Payload.Message m)) {
                continue;
            }
            JsonNode node = m.tree().orElse(null);
            if (node == null) {
                continue;
            }
            for (JsonNode msg : node.isArray() ? node : List.of(node)) {
                if (msg.isObject()) {
                    messages.add(new Message(e.from(), msg));
                }
            }
        }
        return messages;
    }
}
