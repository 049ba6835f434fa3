package dev.stretto.proxy.flow.learn.sessions;

import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.LogBuilder;
import java.util.List;
import java.util.Map;

/** Session logs of several servers for merge tests: a header of one's choosing over LogBuilder's entries. */
final class Logs {

    private Logs() {
    }

    /** A log of {@code session} started at {@code start}, of server {@code name} in {@code host}. */
    static SessionLog of(String session, long start, String host, String name, LogBuilder entries) {
        LogHeader h = new LogHeader(2, session, start, List.of("server"), null, null, host, name, Map.of());
        return new SessionLog(h, entries.build().entries());
    }

    /** The tools/list exchange of a server with the given read-only tools. */
    static LogBuilder listing(long t, String... readTools) {
        StringBuilder tools = new StringBuilder();
        for (String tool : readTools) {
            tools.append(tools.isEmpty() ? "" : ",").append("{\"annotations\":{\"readOnlyHint\":true},\"inputSchema\":")
                    .append("{\"properties\":{\"q\":{\"type\":\"string\"}},\"type\":\"object\"},\"name\":\"")
                    .append(tool).append("\"}");
        }
        return new LogBuilder()
                .line(t, dev.stretto.trace.log.Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                .line(t, dev.stretto.trace.log.Source.SERVER, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":["
                        + tools + "]}}");
    }
}
