package dev.stretto.trace.log;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The first line of a session log.
 *
 * @param version       {@code stretto_mcp_log}: 2 for logs written now; readers accept 1 and 2
 * @param session       the session id, which also names the file: UTC start time to the
 *                      millisecond, {@code Z-}, and the proxy's process id
 * @param startedUnixMs when the session started, in Unix milliseconds
 * @param serverCommand the server command with credential-looking values redacted, or a
 *                      one-element list holding the redacted URL for an HTTP upstream
 * @param domain        {@code --domain}, or null (always written)
 * @param agentModel    {@code --agent-model}, or null (always written)
 * @param hostSession   the host's session ({@code STRETTO_SESSION} or {@code host-<ppid>}),
 *                      or null to omit the field (older logs have none)
 * @param serverName    {@code --server-name}, or null to omit the field
 * @param extra         fields this version does not know, kept in file order
 */
public record LogHeader(int version, String session, long startedUnixMs, List<String> serverCommand,
                        String domain, String agentModel, String hostSession, String serverName,
                        Map<String, JsonNode> extra) {

    /** The format version this code writes. */
    public static final int CURRENT_VERSION = 2;

    /**
     * Checks the header; {@code extra} may be null for none.
     *
     * @throws NullPointerException when {@code session} or {@code serverCommand} is null
     */
    public LogHeader {
        Objects.requireNonNull(session, "session");
        serverCommand = List.copyOf(serverCommand);
        extra = extra == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extra));
    }

    /**
     * A header of the current version with no unknown fields.
     *
     * @param session       the session id
     * @param startedUnixMs when the session started, in ms since the epoch
     * @param serverCommand the server command, redacted
     * @param domain        the domain, or null
     * @param agentModel    the agent's model, or null
     * @param hostSession   the host's session, or null
     * @return the header
     */
    public static LogHeader of(String session, long startedUnixMs, List<String> serverCommand,
                               String domain, String agentModel, String hostSession) {
        return new LogHeader(CURRENT_VERSION, session, startedUnixMs, serverCommand, domain, agentModel,
                hostSession, null, Map.of());
    }

    /** {@return the header's JSON line (without the newline), fields in the reference's order} */
    public String toJson() {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"stretto_mcp_log\":").append(version);
        out.append(",\"session\":");
        JsonText.appendQuoted(out, session);
        out.append(",\"started_unix_ms\":").append(startedUnixMs);
        out.append(",\"server_command\":[");
        for (int i = 0; i < serverCommand.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            JsonText.appendQuoted(out, serverCommand.get(i));
        }
        out.append("],\"domain\":");
        appendNullable(out, domain);
        out.append(",\"agent_model\":");
        appendNullable(out, agentModel);
        if (hostSession != null) {
            out.append(",\"host_session\":");
            JsonText.appendQuoted(out, hostSession);
        }
        if (serverName != null) {
            out.append(",\"server_name\":");
            JsonText.appendQuoted(out, serverName);
        }
        for (Map.Entry<String, JsonNode> e : extra.entrySet()) {
            out.append(',');
            JsonText.appendQuoted(out, e.getKey());
            out.append(':');
            CanonicalJson.appendKeepingKeyOrder(out, e.getValue());
        }
        return out.append('}').toString();
    }

    private static void appendNullable(StringBuilder out, String value) {
        if (value == null) {
            out.append("null");
        } else {
            JsonText.appendQuoted(out, value);
        }
    }
}
