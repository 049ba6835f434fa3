package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class EpisodeJsonTest {

    @Test
    void theShapeMatchesTheFormatDescription() {
        Episode ep = new Episode("s", "", 0, "shop", "quickstart", 0.0, List.of(
                new Event.User("hi"),
                new Event.Assistant(null, List.of(new ToolCall("3", "find_user_id_by_email",
                        CanonicalJson.parse("{\"email\":\"c41@example.com\"}"))), null),
                new Event.ToolResult("3", "find_user_id_by_email", false, "user_41")));
        assertEquals("{\"id\":\"s\",\"task_id\":\"\",\"trial\":0,\"domain\":\"shop\",\"agent_model\":\"quickstart\","
                + "\"reward\":0.0,\"events\":[{\"kind\":\"user\",\"text\":\"hi\"},"
                + "{\"kind\":\"assistant\",\"text\":null,\"calls\":[{\"id\":\"3\",\"name\":\"find_user_id_by_email\","
                + "\"arguments\":{\"email\":\"c41@example.com\"}}],\"usage\":null},"
                + "{\"kind\":\"tool_result\",\"call_id\":\"3\",\"name\":\"find_user_id_by_email\",\"error\":false,"
                + "\"content\":\"user_41\"}]}", ep.toJson());
    }

    @Test
    void usageTextAndRewardAreWrittenInRustSpelling() {
        Episode ep = new Episode("s", "7", 2, "d", "m", 1.0, List.of(
                new Event.Assistant("done\u0001", List.of(), new Usage(120, 8, 0.00125))));
        String json = ep.toJson();
        assertEquals("{\"id\":\"s\",\"task_id\":\"7\",\"trial\":2,\"domain\":\"d\",\"agent_model\":\"m\",\"reward\":1.0,"
                + "\"events\":[{\"kind\":\"assistant\",\"text\":\"done\\u0001\",\"calls\":[],"
                + "\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":8,\"cost\":0.00125}}]}", json);
        assertEquals(ep, Episode.fromJson(json));
    }

    @Test
    void everyFixtureEpisodeRoundTripsExactly() throws IOException {
        for (Path p : Fixtures.homeLogs()) {
            Episode ep = Episode.of(SessionLog.read(p));
            String json = ep.toJson();
            Episode back = Episode.fromJson(json);
            assertEquals(ep, back, p.toString());
            assertEquals(json, back.toJson(), p.toString());
        }
    }

    @Test
    void argumentsAreWrittenWithSortedKeysWhateverTheInputOrder() {
        String json = "{\"id\":\"x\",\"task_id\":\"\",\"trial\":0,\"domain\":\"d\",\"agent_model\":\"m\",\"reward\":0,"
                + "\"events\":[{\"kind\":\"assistant\",\"text\":null,\"calls\":[{\"id\":\"1\",\"name\":\"t\","
                + "\"arguments\":{\"b\":1e2,\"a\":[0.5,-0.0]}}],\"usage\":null}]}";
        assertEquals("{\"id\":\"x\",\"task_id\":\"\",\"trial\":0,\"domain\":\"d\",\"agent_model\":\"m\",\"reward\":0.0,"
                + "\"events\":[{\"kind\":\"assistant\",\"text\":null,\"calls\":[{\"id\":\"1\",\"name\":\"t\","
                + "\"arguments\":{\"a\":[0.5,-0.0],\"b\":100.0}}],\"usage\":null}]}", Episode.fromJson(json).toJson());
    }

    @Test
    void badEpisodesAreRejectedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Episode.fromJson(
                "{\"id\":\"x\",\"task_id\":\"\",\"trial\":0,\"domain\":\"d\",\"agent_model\":\"m\",\"reward\":0.0,"
                        + "\"events\":[{\"kind\":\"shout\"}]}"));
        assertEquals("events[0]: unknown kind \"shout\"", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Episode.fromJson("[]"));
        assertThrows(IllegalArgumentException.class, () -> Episode.fromJson("{\"id\":1}"));
    }
}
