package dev.stretto.cli.console.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The log lines behind a timeline's items: for each call its request and every response to
 * it (the server's, and the proxy's when it rewrote or gave the answer), for each message of
 * the conversation its context line, and the session's handshake. Lines are numbered as in
 * the file (the header is line 1).
 */
public final class LogLines {

    /**
     * One line of the log.
     *
     * @param number its line number in the file
     * @param entry  the entry it holds
     */
    public record Line(int number, LogEntry entry) {
        /** {@return the line as the file holds it} */
        public String text() {
            return entry.toJson();
        }
    }

    private final List<Line> lines;
    private final Map<Timeline.Call, Line> requests = new IdentityHashMap<>();
    private final Map<Timeline.Call, List<Line>> responses = new IdentityHashMap<>();
    private final Map<Timeline.Said, Line> said = new IdentityHashMap<>();
    private final List<Line> handshake = new ArrayList<>();
    private JsonNode initialize;
    private JsonNode initialized;
    private JsonNode tools;

    private LogLines(List<Line> lines) {
        this.lines = lines;
    }

    /**
     * Maps the lines of a log to its timeline's items.
     *
     * @param log      the log
     * @param numbers  the file line number of each entry, in order (see {@link #lineNumbers(byte[])})
     * @param timeline the log's timeline
     * @return the map
     */
    public static LogLines of(SessionLog log, int[] numbers, Timeline timeline) {
        List<Line> lines = new ArrayList<>(log.entries().size());
        for (int i = 0; i < log.entries().size(); i++) {
            lines.add(new Line(i < numbers.length ? numbers[i] : i + 2, log.entries().get(i)));
        }
        LogLines map = new LogLines(lines);
        map.place(timeline);
        return map;
    }

    /**
     * The file line number of each entry: the lines after the first that are not blank, as the
     * log reader skips blank lines.
     *
     * @param content the file's bytes
     * @return one number per entry, in order
     */
    public static int[] lineNumbers(byte[] content) {
        int[] numbers = new int[16];
        int count = 0;
        int line = 1;
        boolean blank = true;
        for (int i = 0; i <= content.length; i++) {
            byte b = i < content.length ? content[i] : (byte) '\n';
            if (b == '\n') {
                if (!blank && line > 1) {
                    if (count == numbers.length) {
                        numbers = java.util.Arrays.copyOf(numbers, count * 2);
                    }
                    numbers[count++] = line;
                }
                line++;
                blank = true;
            } else if (b != ' ' && b != '\t' && b != '\r') {
                blank = false;
            }
        }
        return java.util.Arrays.copyOf(numbers, count);
    }

    private record Parsed(Line line, JsonNode message) {
    }

    private void place(Timeline timeline) {
        List<Parsed> parsed = new ArrayList<>(lines.size());
        // Every line with an id, by that id: calls and their answers are found without a scan each.
        Map<String, List<Integer>> byId = new java.util.HashMap<>();
        for (Line l : lines) {
            JsonNode m = l.entry().payload() instanceof Payload.Message msg ? msg.tree().orElse(null) : null;
            String id = m != null && m.isObject() ? idText(m.get("id")) : null;
            if (id != null) {
                byId.computeIfAbsent(id, k -> new ArrayList<>()).add(parsed.size());
            }
            parsed.add(new Parsed(l, m));
        }
        BitSet used = new BitSet();
        for (Timeline.Call c : timeline.calls()) {
            List<Integer> same = byId.getOrDefault(c.id(), List.of());
            int at = -1;
            for (int i : same) {
                Parsed p = parsed.get(i);
                LogEntry e = p.line().entry();
                if (!used.get(i) && e.tMs() == c.sentMs() && e.from() == c.from()
                        && "tools/call".equals(p.message().path("method").asText())) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                continue;
            }
            used.set(at);
            requests.put(c, parsed.get(at).line());
            List<Line> answers = new ArrayList<>();
            for (int i : same) {
                if (i <= at) {
                    continue;
                }
                Parsed p = parsed.get(i);
                if (p.message().has("method")) {
                    if ("tools/call".equals(p.message().path("method").asText())) {
                        break;
                    }
                    continue;
                }
                if (p.line().entry().from() == Source.SERVER || p.line().entry().from() == Source.PROXY) {
                    answers.add(p.line());
                }
            }
            responses.put(c, answers);
        }
        int from = 0;
        for (Timeline.Step s : timeline.steps()) {
            if (s instanceof Timeline.Said say) {
                for (int i = from; i < parsed.size(); i++) {
                    Parsed p = parsed.get(i);
                    if (p.line().entry().from() == Source.CONTEXT && p.line().entry().tMs() == say.tMs()) {
                        said.put(say, p.line());
                        from = i + 1;
                        break;
                    }
                }
            }
        }
        handshake(parsed);
    }

    /** The first initialize and tools/list exchanges. */
    private void handshake(List<Parsed> parsed) {
        String initId = null;
        String listId = null;
        for (Parsed p : parsed) {
            JsonNode m = p.message();
            if (m == null || !m.isObject()) {
                continue;
            }
            Source from = p.line().entry().from();
            String method = m.path("method").asText(null);
            String id = idText(m.get("id"));
            if (from == Source.CLIENT && "initialize".equals(method) && initialize == null) {
                initialize = m;
                initId = id;
                handshake.add(p.line());
            } else if (from == Source.CLIENT && "tools/list".equals(method) && listId == null) {
                listId = id;
                handshake.add(p.line());
            } else if (method == null && id != null && (from == Source.SERVER || from == Source.PROXY)) {
                if (id.equals(initId) && m.has("result")) {
                    initialized = m.get("result");
                    handshake.add(p.line());
                } else if (id.equals(listId) && m.path("result").has("tools")) {
                    // A proxy's rewritten listing (with stretto_commit) comes after the server's and wins.
                    tools = m.path("result").get("tools");
                    handshake.add(p.line());
                }
            }
        }
    }

    /** A JSON-RPC id as the timeline spells it: a string as it is, anything else as its JSON; null for none. */
    public static String idText(JsonNode id) {
        if (id == null || id.isNull() || id.isMissingNode()) {
            return null;
        }
        return id.isTextual() ? id.textValue() : id.toString();
    }

    /** {@return every line, in file order} */
    public List<Line> all() {
        return lines;
    }

    /**
     * The request line of a call.
     *
     * @param call a call of the timeline
     * @return its line, or null when it was not found
     */
    public Line request(Timeline.Call call) {
        return requests.get(call);
    }

    /**
     * The response lines of a call: the server's answer, and the proxy's when it gave or
     * rewrote the answer the host got.
     *
     * @param call a call of the timeline
     * @return its lines, in order
     */
    public List<Line> responses(Timeline.Call call) {
        return responses.getOrDefault(call, List.of());
    }

    /**
     * The context line of a message of the conversation.
     *
     * @param s a message of the timeline
     * @return its line, or null
     */
    public Line said(Timeline.Said s) {
        return said.get(s);
    }

    /** {@return the lines of the first initialize and tools/list exchanges, in order} */
    public List<Line> handshake() {
        return handshake;
    }

    /** {@return the host's initialize request, or null} */
    public JsonNode initializeRequest() {
        return initialize;
    }

    /** {@return the server's initialize result, or null} */
    public JsonNode initializeResult() {
        return initialized;
    }

    /** {@return the tools the host was given in the first listing, or null} */
    public JsonNode tools() {
        return tools;
    }
}
