package dev.stretto.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.tau2.Tau2Simulation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Byte-for-byte output for a fixed log (src/test/resources/golden/session.jsonl: parallel
 * calls, a lookup, an error, a refusal, a cancelled and an unanswered call, floats and
 * non-ASCII text). The golden files were checked by hand against the format description.
 */
class GoldenFilesTest {

    static byte[] resource(String name) {
        try (InputStream in = GoldenFilesTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource golden/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(resource(name), StandardCharsets.UTF_8);
    }

    static SessionLog log() throws LogFormatException {
        return SessionLog.parse(resource("session.jsonl"), "session.jsonl");
    }

    @Test
    void episodeJsonIsByteIdentical() throws LogFormatException {
        assertEquals(text("session.episode.json"), Episode.of(log()).toJson() + "\n");
    }

    @Test
    void tau2SimulationIsByteIdentical() throws LogFormatException {
        assertEquals(text("session.tau2.json"), Tau2Simulation.toJson(Timeline.of(log()), 0.0) + "\n");
    }

    @Test
    void manifestIsByteIdentical() throws LogFormatException {
        assertEquals(text("session.manifest.json"), Manifest.of(log(), "notes").toJson());
    }

    @Test
    void theLogWritesBackByteForByte() throws LogFormatException {
        assertEquals(text("session.jsonl"), log().toJsonLines());
    }
}
