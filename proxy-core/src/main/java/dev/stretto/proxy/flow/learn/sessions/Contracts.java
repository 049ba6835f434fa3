package dev.stretto.proxy.flow.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.tools.Contract;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.ToolListings;
import java.util.List;
import java.util.SortedMap;

/**
 * The input contracts a flow pins (stretto-formats 2.10): the {@link Contract} of each listed
 * tool with an {@code inputSchema}, the one rule the proxy serving the flow compares live
 * listings by, so that it stops looking a tool up once its live contract differs.
 */
public final class Contracts {

    private Contracts() {
    }

    /** The contracts of every tool the logs listed; later listings replace earlier ones. */
    public static SortedMap<String, String> ofLogs(List<SessionLog> logs) {
        SortedMap<String, String> contracts = ByteOrder.map();
        for (SessionLog log : logs) {
            for (List<JsonNode> listing : ToolListings.of(log)) {
                for (JsonNode tool : listing) {
                    JsonNode name = tool.get("name");
                    String contract = Contract.of(tool.get("inputSchema"));
                    if (name != null && name.isTextual() && contract != null) {
                        contracts.put(name.textValue(), contract);
                    }
                }
            }
        }
        return contracts;
    }
}
