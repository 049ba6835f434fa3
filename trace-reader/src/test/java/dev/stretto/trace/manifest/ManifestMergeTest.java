package dev.stretto.trace.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.LogBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The manifest of several logs' tool lists, as the reference's learn merges them (stretto-learn
 * 2.3), and a manifest file's docs.
 */
class ManifestMergeTest {

    private static LogBuilder listed(int id, String toolsJson) {
        return new LogBuilder()
                .line(0, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}")
                .line(1, Source.SERVER, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"tools\":" + toolsJson + "}}");
    }

    private static SessionLog log(LogBuilder... parts) {
        LogBuilder all = new LogBuilder();
        for (LogBuilder p : parts) {
            p.build().entries().forEach(e -> all.line(e.tMs(), e.from(),
                    ((dev.stretto.trace.log.Payload.Message) e.payload()).json()));
        }
        return all.build();
    }

    private static final String DESCRIBED = "[{\"name\":\"find\",\"annotations\":{\"readOnlyHint\":true},"
            + "\"description\":\"  Find\\n a   thing. \",\"inputSchema\":{\"type\":\"object\",\"properties\":"
            + "{\"q\":{\"type\":\"string\",\"description\":\"what\\tto find\"},\"n\":{\"type\":[\"integer\",\"null\"]}},"
            + "\"required\":[\"q\"]}},{\"name\":\"zap\",\"annotations\":{\"readOnlyHint\":false}},{\"name\":\"misc\"}]";

    @Test
    void kindsComeFromReadOnlyHintAndDocsHaveTheirWhitespaceCollapsed() {
        Manifest m = Manifest.of(List.of(log(listed(1, DESCRIBED))), "shop");
        assertEquals(Map.of("find", ToolKind.READ, "misc", ToolKind.GENERIC, "zap", ToolKind.WRITE), m.tools());
        assertEquals(Map.of("find", new Manifest.ToolDoc("Find a thing.", Map.of("q", "what to find"))), m.docs());
        assertEquals("shop", m.domain());
    }

    @Test
    void aLaterListingInTheSameLogReplacesTheKindAndDropsTheDoc() {
        String undescribed = "[{\"name\":\"find\",\"annotations\":{\"readOnlyHint\":false}}]";
        Manifest m = Manifest.of(List.of(log(listed(1, DESCRIBED), listed(2, undescribed))), "d");
        assertEquals(ToolKind.WRITE, m.tools().get("find"));
        assertEquals(Map.of(), m.docs());
    }

    @Test
    void aLaterLogWithoutADocKeepsAnEarlierLogsDoc() {
        String undescribed = "[{\"name\":\"find\",\"annotations\":{\"readOnlyHint\":true}}]";
        Manifest m = Manifest.of(List.of(log(listed(1, DESCRIBED)), log(listed(1, undescribed))), "d");
        assertEquals("Find a thing.", m.docs().get("find").summary());
    }

    @Test
    void aListingNobodyAskedForIsNotATooList() {
        SessionLog log = new LogBuilder()
                .line(1, Source.SERVER, "{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":" + DESCRIBED + "}}")
                .build();
        assertEquals(Map.of(), Manifest.of(List.of(log), "d").tools());
    }

    @Test
    void aManifestFileGivesKindsDocsAndItsOwnDomain() {
        Manifest m = Manifest.parse("{\"domain\":\"shop\",\"tools\":{\"b\":\"write\",\"a\":\"read\"},"
                + "\"docs\":{\"a\":{\"summary\":\"A.\",\"args\":{\"x\":\"the x\"}}}}");
        assertEquals(List.of("b", "a"), List.copyOf(m.tools().keySet()), "in the file's order");
        assertEquals(new Manifest.ToolDoc("A.", Map.of("x", "the x")), m.docs().get("a"));
        assertEquals(Map.of(), Manifest.parse("{\"domain\":\"d\",\"tools\":{}}").docs());
    }

    @Test
    void aManifestFileWithAnUnknownKindIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Manifest.parse("{\"domain\":\"d\",\"tools\":{\"a\":\"readonly\"}}"));
        assertEquals("unknown tool kind \"readonly\" (read, write or generic)", e.getMessage());
    }
}
