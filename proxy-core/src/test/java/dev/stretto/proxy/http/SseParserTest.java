package dev.stretto.proxy.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

    private static List<SseEvent> all(SseParser parser) throws IOException {
        List<SseEvent> out = new ArrayList<>();
        SseEvent e;
        while ((e = parser.next()) != null) {
            out.add(e);
        }
        return out;
    }

    private static SseParser parser(String text) {
        return new SseParser(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsFieldsOfEachEvent() throws IOException {
        List<SseEvent> events = all(parser("event: message\nid: 1\ndata: {\"a\":1}\n\nevent: other\ndata: x\n\n"));
        assertEquals(List.of(new SseEvent("1", "message", "{\"a\":1}"), new SseEvent(null, "other", "x")), events);
    }

    @Test
    void eventWithoutTypeIsMessage() throws IOException {
        assertEquals(List.of(new SseEvent(null, "message", "hi")), all(parser("data: hi\n\n")));
    }

    @Test
    void joinsMultiLineDataWithLineFeeds() throws IOException {
        assertEquals("{\n\"a\": 1\n}", all(parser("data: {\ndata: \"a\": 1\ndata: }\n\n")).get(0).data());
    }

    @Test
    void skipsCommentsAndUnknownFields() throws IOException {
        List<SseEvent> events = all(parser(": keep-alive\nfoo: bar\ndata: x\n: another\n\n:only a comment\n\n"));
        assertEquals(List.of(new SseEvent(null, "message", "x")), events);
    }

    @Test
    void acceptsCrLfAndLoneCrLineEndings() throws IOException {
        List<SseEvent> events = all(parser("id: a\r\ndata: one\r\n\r\nid: b\rdata: two\r\r"));
        assertEquals(List.of(new SseEvent("a", "message", "one"), new SseEvent("b", "message", "two")), events);
    }

    @Test
    void crLfSplitAcrossReadsIsOneLineEnd() throws IOException {
        // One byte per read puts the CR and the LF in different reads.
        byte[] bytes = "data: one\r\n\r\ndata: two\r\n\r\n".getBytes(StandardCharsets.UTF_8);
        InputStream trickle = oneBytePerRead(bytes);
        assertEquals(List.of(new SseEvent(null, "message", "one"), new SseEvent(null, "message", "two")),
                all(new SseParser(trickle)));
    }

    @Test
    void keepsRetryHintOfDigitsOnly() throws IOException {
        SseParser p = parser("retry: 2500\ndata: x\n\nretry: soon\ndata: y\n\n");
        all(p);
        assertEquals(2500, p.retryMillis());
        assertEquals(-1, parser("data: x\n\n").retryMillis());
    }

    @Test
    void lastEventIdPersistsUntilChangedAndEmptyIdClearsIt() throws IOException {
        SseParser p = parser("id: 7\ndata: a\n\ndata: b\n\n");
        List<SseEvent> events = all(p);
        assertEquals("7", events.get(0).id());
        assertNull(events.get(1).id(), "the second event set no id of its own");
        assertEquals("7", p.lastEventId());
        SseParser cleared = parser("id: 7\ndata: a\n\nid\ndata: c\n\n");
        all(cleared);
        assertNull(cleared.lastEventId());
    }

    @Test
    void idWithNulIsIgnored() throws IOException {
        SseParser p = parser("id: ok\n\nid: a\u0000b\ndata: x\n\n");
        assertNull(all(p).get(0).id());
        assertEquals("ok", p.lastEventId());
    }

    @Test
    void emptyDataIsAPrimingEventWithItsId() throws IOException {
        SseParser p = parser("id: prime-1\nretry: 10\ndata:\n\n");
        List<SseEvent> events = all(p);
        assertEquals(1, events.size());
        assertTrue(events.get(0).isEmpty());
        assertEquals("prime-1", events.get(0).id());
        assertEquals(10, p.retryMillis());
    }

    @Test
    void eventWithoutDataIsNotDispatchedButItsIdCounts() throws IOException {
        SseParser p = parser("id: 9\nevent: message\n\n");
        assertTrue(all(p).isEmpty());
        assertEquals("9", p.lastEventId());
    }

    @Test
    void valueKeepsSpacesAfterTheFirstOneAndColonlessFieldHasEmptyValue() throws IOException {
        assertEquals(List.of(new SseEvent(null, "message", "  two"), new SseEvent(null, "message", "")),
                all(parser("data:   two\n\ndata\n\n")));
    }

    @Test
    void byteOrderMarkAtStartIsSkipped() throws IOException {
        assertEquals("x", all(parser("\uFEFFdata: x\n\n")).get(0).data());
    }

    @Test
    void byteOrderMarkSplitAcrossReadsIsSkipped() throws IOException {
        // A server that flushes the mark on its own: the first read holds fewer than three bytes.
        byte[] bytes = "\uFEFFid: a\ndata: x\n\n".getBytes(StandardCharsets.UTF_8);
        InputStream trickle = oneBytePerRead(bytes);
        assertEquals(List.of(new SseEvent("a", "message", "x")), all(new SseParser(trickle)));
    }

    @Test
    void tornLastEventIsDroppedAndReported() throws IOException {
        SseParser p = parser("data: whole\n\ndata: {\"half\":");
        assertEquals(List.of(new SseEvent(null, "message", "whole")), all(p));
        assertTrue(p.endedMidEvent());
        SseParser clean = parser("data: whole\n\n: bye\n");
        all(clean);
        assertFalse(clean.endedMidEvent());
    }

    @Test
    void longDataLineArrivesWhole() throws IOException {
        String big = "x".repeat(3 * 1024 * 1024);
        assertEquals(big, all(parser("data: " + big + "\n\n")).get(0).data());
    }

    @Test
    void multiByteUtf8SurvivesBufferBoundaries() throws IOException {
        String text = "é€😀".repeat(10_000);
        assertEquals(text, all(parser("data: " + text + "\n\n")).get(0).data());
    }

    /** A stream that hands out one byte per read, as a server flushing byte by byte would. */
    private static InputStream oneBytePerRead(byte[] bytes) {
        return new InputStream() {
            int i;

            @Override
            public int read() {
                return i < bytes.length ? bytes[i++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (i >= bytes.length) {
                    return -1;
                }
                b[off] = bytes[i++];
                return 1;
            }
        };
    }
}
