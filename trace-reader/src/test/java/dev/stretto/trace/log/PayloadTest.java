package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.json.CanonicalJson;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @Test
    void aMessageParsesIntoItsTree() {
        var tree = new Payload.Message("{\"b\":1,\"a\":[true,null]}").tree();
        assertEquals("{\"a\":[true,null],\"b\":1}", CanonicalJson.write(tree.orElseThrow()));
    }

    @Test
    void aMessageThatIsNotJsonHasNoTree() {
        assertTrue(new Payload.Message("{\"a\":").tree().isEmpty());
        assertTrue(new Payload.Message("{} {}").tree().isEmpty());
    }
}
