package dev.stretto.proxy.redact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.record.StrictJson;
import dev.stretto.trace.log.Payload;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogScrubberTest {

    private final LogScrubber scrubber = new LogScrubber(List.of("Bearer sk-abc/123", "sk-abc/123", "eu"));

    private String message(String json) {
        Payload p = scrubber.scrub(new Payload.Message(json));
        String out = ((Payload.Message) p).json();
        assertTrue(StrictJson.judge(out.getBytes(StandardCharsets.UTF_8)).valid(), out);
        return out;
    }

    @Test
    void aSecretInAStringOrKeyIsReplacedAndTheRestKeepsItsBytes() {
        assertEquals("{ \"a\" : \"<redacted>\", \"n\": 1.50 }", message("{ \"a\" : \"Bearer sk-abc/123\", \"n\": 1.50 }"));
        assertEquals("{\"<redacted>\":[\"x <redacted> y\"]}", message("{\"sk-abc/123\":[\"x sk-abc/123 y\"]}"));
    }

    @Test
    void aSecretHiddenInEscapesIsFoundInTheStringsText() {
        assertEquals("[\"<redacted>\",\"\\u00e9\"]", message("[\"sk-abc\\/123\",\"\\u00e9\"]"));
        assertEquals("[\"<redacted>\"]", message("[\"\\u0073k-abc/123\"]"));
        assertEquals("[\"<redacted>\\n\"]", message("[\"sk-abc/123\\n\"]"));
    }

    @Test
    void aMessageWithoutSecretsKeepsItsBytes() {
        Payload.Message m = new Payload.Message("{\"q\":\"\\\"sk-abc\\\"\",\"region\":\"u\"}");
        assertEquals(m, scrubber.scrub(m));
        Payload.Message plain = new Payload.Message("{\"q\":1}");
        assertSame(plain, scrubber.scrub(plain));
    }

    @Test
    void rawTextHasEachOccurrenceReplaced() {
        assertEquals(new Payload.Raw("token <redacted> and <redacted>"),
                scrubber.scrub(new Payload.Raw("token sk-abc/123 and Bearer sk-abc/123")));
    }

    @Test
    void valuesShorterThanFourCharactersAreNotLookedFor() {
        assertEquals(new Payload.Raw("region eu"), scrubber.scrub(new Payload.Raw("region eu")));
    }

    @Test
    void aSecretThatIsANumberBecomesAString() {
        LogScrubber digits = new LogScrubber(List.of("12345678"));
        Payload p = digits.scrub(new Payload.Message("{\"n\":12345678,\"m\":1}"));
        assertEquals(new Payload.Message("{\"n\":\"<redacted>\",\"m\":1}"), p);
    }
}
