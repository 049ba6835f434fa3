package dev.stretto.proxy.flow.learn.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.json.JsonRpcId;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Joins the logs one agent session left with several servers (one proxy, one log per server)
 * into one log per agent session, as the reference's {@code mcp::merge} does
 * (stretto-learn 2.2): logs with the same {@code host_session} whose times overlap become one
 * session whose tools, ids and tool lists are named {@code server::name}.
 *
 * <p>A log's server name is its header's {@code server_name}, else its {@code domain}, else
 * the {@code serverInfo.name} the server gave at {@code initialize}, with every character
 * outside {@code [A-Za-z0-9._-]} made {@code _}; a log without one is never merged.
 */
public final class ServerMerge {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * What merging did.
     *
     * @param logs           the sessions to learn from, in the order of their first log
     * @param mergedLogs     how many logs were merged into others
     * @param mergedSessions how many merged sessions they made
     * @param keptApart      host sessions whose logs were kept apart, because two servers of
     *                       the same name ran in them at once (in the order met)
     */
    public record Result(List<SessionLog> logs, int mergedLogs, int mergedSessions, List<String> keptApart) {
        public Result {
            logs = List.copyOf(logs);
            keptApart = List.copyOf(keptApart);
        }
    }

    private ServerMerge() {
    }

    /** Merges {@code logs}, which must be sorted by session id already. */
    public static Result merge(List<SessionLog> logs) {
        List<String> names = new ArrayList<>(logs.size());
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int i = 0; i < logs.size(); i++) {
            String name = serverName(logs.get(i));
            names.add(name);
            String host = logs.get(i).header().hostSession();
            if (host != null && name != null) {
                byHost.computeIfAbsent(host, h -> new ArrayList<>()).add(i);
            }
        }
        // Each group is a list of original indices: a merged run, or one log on its own.
        List<List<Integer>> groups = new ArrayList<>();
        Set<Integer> grouped = new HashSet<>();
        Set<String> keptApart = new LinkedHashSet<>();
        Map<List<Integer>, String> sessionOfRun = new HashMap<>();
        for (Map.Entry<String, List<Integer>> host : byHost.entrySet()) {
            List<List<Integer>> runs = new ArrayList<>();
            for (List<Integer> run : runs(host.getValue(), logs)) {
                if (run.size() < 2) {
                    continue;
                }
                if (sameNameOverlaps(run, logs, names)) {
                    keptApart.add(host.getKey());
                    continue;
                }
                runs.add(run);
            }
            for (int k = 0; k < runs.size(); k++) {
                List<Integer> run = runs.get(k);
                sessionOfRun.put(run, runs.size() > 1 ? host.getKey() + "#" + k : host.getKey());
                groups.add(run);
                grouped.addAll(run);
            }
        }
        if (groups.isEmpty()) {
            return new Result(logs, 0, 0, List.copyOf(keptApart));
        }
        int mergedLogs = grouped.size();
        int mergedSessions = groups.size();
        for (int i = 0; i < logs.size(); i++) {
            if (!grouped.contains(i)) {
                groups.add(List.of(i));
            }
        }
        groups.sort(Comparator.comparingInt(g -> g.stream().mapToInt(Integer::intValue).min().orElseThrow()));
        List<SessionLog> out = new ArrayList<>(groups.size());
        for (List<Integer> g : groups) {
            if (g.size() == 1) {
                int i = g.getFirst();
                out.add(names.get(i) == null ? logs.get(i) : qualified(logs.get(i), names.get(i)));
            } else {
                out.add(merged(g, sessionOfRun.get(g), logs, names));
            }
        }
        return new Result(out, mergedLogs, mergedSessions, List.copyOf(keptApart));
    }

    /** The log's server name as merging uses it, or null when it has none. */
    static String serverName(SessionLog log) {
        String name = log.header().serverName();
        if (name == null) {
            name = log.header().domain();
        }
        if (name == null) {
            name = announcedName(log);
        }
        if (name == null || name.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> out.append(
                c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-') ? (char) c : '_'));
        return out.toString();
    }

    private static String announcedName(SessionLog log) {
        for (LogMessages.Message m : LogMessages.of(log)) {
            JsonNode name = m.json().path("result").path("serverInfo").get("name");
            if (m.from() == Source.SERVER && name != null && name.isTextual()) {
                return name.textValue();
            }
        }
        return null;
    }

    private static long end(SessionLog log) {
        List<LogEntry> entries = log.entries();
        return log.header().startedUnixMs() + (entries.isEmpty() ? 0 : entries.getLast().tMs());
    }

    /** The host session's logs, by start, cut into runs whose time spans overlap. */
    private static List<List<Integer>> runs(List<Integer> members, List<SessionLog> logs) {
        List<Integer> byStart = new ArrayList<>(members);
        byStart.sort(Comparator.comparingLong(i -> logs.get(i).header().startedUnixMs()));
        List<List<Integer>> runs = new ArrayList<>();
        List<Integer> run = new ArrayList<>();
        long runEnd = Long.MIN_VALUE;
        for (int i : byStart) {
            SessionLog log = logs.get(i);
            if (!run.isEmpty() && log.header().startedUnixMs() > runEnd) {
                runs.add(run);
                run = new ArrayList<>();
                runEnd = Long.MIN_VALUE;
            }
            run.add(i);
            runEnd = Math.max(runEnd, end(log));
        }
        if (!run.isEmpty()) {
            runs.add(run);
        }
        return runs;
    }

    private static boolean sameNameOverlaps(List<Integer> run, List<SessionLog> logs, List<String> names) {
        for (int a = 0; a < run.size(); a++) {
            for (int b = a + 1; b < run.size(); b++) {
                int i = run.get(a);
                int j = run.get(b);
                if (names.get(i).equals(names.get(j))
                        && logs.get(j).header().startedUnixMs() <= end(logs.get(i))
                        && logs.get(i).header().startedUnixMs() <= end(logs.get(j))) {
                    return true;
                }
            }
        }
        return false;
    }

    private record Stamped(long tMs, int part, LogEntry entry) {
    }

    private static SessionLog merged(List<Integer> run, String session, List<SessionLog> logs, List<String> names) {
        long earliest = run.stream().mapToLong(i -> logs.get(i).header().startedUnixMs()).min().orElseThrow();
        List<Stamped> all = new ArrayList<>();
        for (int p = 0; p < run.size(); p++) {
            SessionLog part = logs.get(run.get(p));
            long shift = part.header().startedUnixMs() - earliest;
            List<LogEntry> entries = new ArrayList<>(part.entries());
            long endMs = entries.isEmpty() ? 0 : entries.getLast().tMs();
            for (String id : unansweredCalls(part)) {
                entries.add(new LogEntry(endMs, Source.PROXY, new Payload.Message(cancellation(id))));
            }
            for (LogEntry e : entries) {
                all.add(new Stamped(e.tMs() + shift, p, e));
            }
        }
        all.sort(Comparator.comparingLong(Stamped::tMs).thenComparingInt(Stamped::part));
        List<LogEntry> entries = new ArrayList<>(all.size());
        Map<Integer, Integer> contextLines = new HashMap<>();
        Map<Integer, Map<Payload, Integer>> contextSeen = new HashMap<>();
        for (Stamped s : all) {
            LogEntry e = s.entry();
            if (e.from() == Source.CONTEXT) {
                int n = contextLines.merge(s.part(), 1, Integer::sum);
                Integer by = contextSeen.computeIfAbsent(n, k -> new HashMap<>()).putIfAbsent(e.payload(), s.part());
                if (by != null && by != s.part()) {
                    continue; // the host's one conversation, logged again by another proxy
                }
                entries.add(new LogEntry(s.tMs(), e.from(), e.payload()));
            } else {
                entries.add(new LogEntry(s.tMs(), e.from(), qualify(e.payload(), names.get(run.get(s.part())))));
            }
        }
        String domain = logs.get(run.getFirst()).header().domain();
        String agent = null;
        for (int i : run) {
            LogHeader h = logs.get(i).header();
            if (!Objects.equals(domain, h.domain())) {
                domain = null;
            }
            if (agent == null) {
                agent = h.agentModel();
            }
        }
        LogHeader header = new LogHeader(LogHeader.CURRENT_VERSION, session, earliest, List.of(), domain, agent,
                logs.get(run.getFirst()).header().hostSession(), null, Map.of());
        return new SessionLog(header, entries);
    }

    /** The ids of the agent's and the proxy's calls that got no response and were not cancelled. */
    private static List<String> unansweredCalls(SessionLog log) {
        Map<String, JsonNode> open = new LinkedHashMap<>();
        for (LogMessages.Message m : LogMessages.of(log)) {
            JsonNode msg = m.json();
            JsonNode method = msg.get("method");
            JsonNode id = msg.get("id");
            boolean agentSide = m.from() == Source.CLIENT || m.from() == Source.PROXY;
            if (method != null && method.isTextual()) {
                if (agentSide && "tools/call".equals(method.textValue()) && id != null && !id.isNull()) {
                    open.put(JsonRpcId.key(id), id);
                } else if (agentSide && "notifications/cancelled".equals(method.textValue())) {
                    JsonNode requestId = msg.path("params").get("requestId");
                    if (requestId != null && !requestId.isNull()) {
                        open.remove(JsonRpcId.key(requestId));
                    }
                }
            } else if (id != null && !id.isNull() && m.from() != Source.CLIENT
                    && (msg.has("result") || msg.has("error"))) {
                open.remove(JsonRpcId.key(id));
            }
        }
        return open.values().stream().map(CanonicalJson::write).toList();
    }


    private static String cancellation(String idJson) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + idJson + "}}";
    }

    private static SessionLog qualified(SessionLog log, String server) {
        List<LogEntry> entries = new ArrayList<>(log.entries().size());
        for (LogEntry e : log.entries()) {
            entries.add(e.from() == Source.CONTEXT ? e : new LogEntry(e.tMs(), e.from(), qualify(e.payload(), server)));
        }
        return new SessionLog(log.header(), entries);
    }

    /** The payload with its ids, tool names and listed tools named {@code server::...}. */
    private static Payload qualify(Payload payload, String server) {
        if (!(payload instanceof Payload.Message m)) {
            return payload;
        }
        JsonNode node = m.tree().orElse(null);
        if (node == null) {
            return payload;
        }
        if (node.isArray()) {
            for (JsonNode msg : node) {
                qualifyMessage(msg, server);
            }
        } else {
            qualifyMessage(node, server);
        }
        return new Payload.Message(CanonicalJson.write(node));
    }

    private static void qualifyMessage(JsonNode msg, String server) {
        if (!(msg instanceof ObjectNode o)) {
            return;
        }
        JsonNode id = o.get("id");
        if (id != null && !id.isNull()) {
            o.set("id", named(server, id));
        }
        String method = o.path("method").isTextual() ? o.get("method").textValue() : null;
        if ("tools/call".equals(method) && o.get("params") instanceof ObjectNode params
                && params.get("name") != null && params.get("name").isTextual()) {
            params.set("name", named(server, params.get("name")));
        }
        if ("notifications/cancelled".equals(method) && o.get("params") instanceof ObjectNode params) {
            JsonNode requestId = params.get("requestId");
            if (requestId != null && !requestId.isNull()) {
                params.set("requestId", named(server, requestId));
            }
        }
        JsonNode tools = o.path("result").get("tools");
        if (tools != null && tools.isArray()) {
            for (JsonNode t : tools) {
                if (t instanceof ObjectNode tool && tool.get("name") != null && tool.get("name").isTextual()) {
                    tool.set("name", named(server, tool.get("name")));
                }
            }
        }
    }

    private static JsonNode named(String server, JsonNode value) {
        String text = value.isTextual() ? value.textValue() : CanonicalJson.write(value);
        return JSON.textNode(server + "::" + text);
    }
}
