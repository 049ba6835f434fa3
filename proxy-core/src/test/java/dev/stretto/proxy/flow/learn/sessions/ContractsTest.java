package dev.stretto.proxy.flow.learn.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.LogBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contracts learn pins from the logs' tool lists (stretto-learn 2.4), by the one rule the
 * proxy compares live listings with ({@code flow.tools.Contract}).
 */
class ContractsTest {

    private static SessionLog listed(String toolsJson) {
        return new LogBuilder()
                .line(0, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                .line(1, Source.SERVER, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":" + toolsJson + "}}")
                .build();
    }

    @Test
    void contractsListEachPropertyWithItsTypeAndRequiredMark() {
        assertEquals(Map.of("find", "n:integer|null, q:string!"), Contracts.ofLogs(List.of(listed("[{\"name\":\"find\","
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"},\"n\":{\"type\":"
                + "[\"integer\",\"null\"]}},\"required\":[\"q\"]}}]"))));
    }

    @Test
    void aTypeListHoldingSomethingButStringsIsAnyAndANonObjectSchemaIsNoContract() {
        assertEquals(Map.of("a", "x:any"), Contracts.ofLogs(List.of(listed("[{\"name\":\"a\",\"inputSchema\":"
                + "{\"properties\":{\"x\":{\"type\":[\"string\",1]}}}},{\"name\":\"b\",\"inputSchema\":\"none\"},"
                + "{\"name\":\"c\",\"inputSchema\":null},{\"name\":\"d\"}]"))));
    }
}
