package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import java.util.List;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Set;

/**
 * The key an exploration draw is seeded with: the JSON of the episode's events with every
 * {@code id}, {@code call_id} and {@code usage} member removed at any depth, keys sorted. The
 * same conversation thus draws the same way whatever its call ids.
 */
final class ContentKey {

    private static final Set<String> LEFT_OUT = Set.of("id", "call_id", "usage");

    private ContentKey() {
    }

    /**
     * The key's part for one event of {@code episode}: the key is these parts, in order,
     * separated by commas, in brackets.
     */
    static String piece(Episode episode, Event event) {
        String one = of(new Episode(episode.id(), episode.taskId(), episode.trial(), episode.domain(),
                episode.agentModel(), episode.reward(), List.of(event)));
        return one.substring(1, one.length() - 1);
    }

    static String of(Episode episode) {
        JsonNode events = CanonicalJson.parse(episode.toJson()).get("events");
        strip(events);
        return CanonicalJson.write(events);
    }

    private static void strip(JsonNode node) {
        if (node.isObject()) {
            ((ObjectNode) node).remove(LEFT_OUT);
        }
        for (JsonNode child : node) {
            strip(child);
        }
    }
}
