package dev.stretto.trace.testing;

import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;

/** Builds a session log in memory, one wire message at a time, for a rule's test. */
public final class LogBuilder {

    private final List<LogEntry> entries = new ArrayList<>();
    private String domain;
    private String agentModel;

    public LogBuilder domain(String d) {
        domain = d;
        return this;
    }

    public LogBuilder agentModel(String m) {
        agentModel = m;
        return this;
    }

    public LogBuilder line(long t, Source from, String json) {
        entries.add(new LogEntry(t, from, new Payload.Message(json)));
        return this;
    }

    public LogBuilder raw(long t, Source from, String text) {
        entries.add(new LogEntry(t, from, new Payload.Raw(text)));
        return this;
    }

    /** A client tools/call with a numeric id and the given arguments object. */
    public LogBuilder call(long t, int id, String tool, String args) {
        return line(t, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}");
    }

    /** A proxy lookup with id stretto-N. */
    public LogBuilder lookup(long t, int n, String tool, String args) {
        return line(t, Source.PROXY, "{\"id\":\"stretto-" + n
                + "\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":" + args
                + ",\"name\":\"" + tool + "\"}}");
    }

    /** A server result with one text item; {@code id} is JSON (a number or a quoted string). */
    public LogBuilder result(long t, String id, String text) {
        return line(t, Source.SERVER, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + dev.stretto.trace.log.JsonText.quote(text) + ",\"type\":\"text\"}],\"isError\":false}}");
    }

    public LogBuilder result(long t, int id, String text) {
        return result(t, Integer.toString(id), text);
    }

    /** The proxy's answer to the agent's call {@code id}: its copy of a held answer, with a flow's lookups appended. */
    public LogBuilder handOver(long t, int id, String text) {
        return line(t, Source.PROXY, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + dev.stretto.trace.log.JsonText.quote(text) + ",\"type\":\"text\"},{\"text\":\"--- Also looked up"
                + " automatically (current results; no need to repeat these calls) ---\",\"type\":\"text\"}],"
                + "\"isError\":false}}");
    }

    public LogBuilder user(long t, String text) {
        return line(t, Source.CONTEXT, "{\"role\":\"user\",\"content\":" + dev.stretto.trace.log.JsonText.quote(text) + "}");
    }

    public LogBuilder assistant(long t, String text) {
        return line(t, Source.CONTEXT, "{\"role\":\"assistant\",\"content\":"
                + dev.stretto.trace.log.JsonText.quote(text) + "}");
    }

    public LogBuilder cancel(long t, int id) {
        return line(t, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
                + id + "}}");
    }

    public SessionLog build() {
        LogHeader h = new LogHeader(2, "20260101T000000.000Z-1", 1767225600000L, List.of("server"), domain, agentModel,
                null, null, null);
        return new SessionLog(h, entries);
    }
}
