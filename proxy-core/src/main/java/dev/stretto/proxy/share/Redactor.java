package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.manifest.ToolListings;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Writes pseudonymised copies of session logs and the logs beside them, from which {@code
 * stretto learn} learns the same flow: every personal value replaced by a pseudonym of the
 * same shape, the same value by the same pseudonym in every file of a run (and of every run
 * with the same key), so that a value the customer said, passed to a tool and got back still
 * matches itself everywhere. Everything that is not a personal value keeps its bytes.
 *
 * <p>A run reads its files twice: first to find the values (by key, by a rules file, by their
 * form, in tool arguments and results, in JSON held in text, in the conversation and in raw
 * lines), then to write each file with every occurrence of every value replaced, wherever it
 * stands. See {@link ValueKind} for what each kind becomes, {@link RedactionRules} for what a
 * rules file adds and {@link RedactionOptions} for the header.
 *
 * <pre>{@code
 * Redactor redactor = Redactor.of(PseudonymKey.loadOrCreate(keyFile), RedactionRules.none(),
 *         RedactionOptions.defaults());
 * SessionLog shared = redactor.redact(SessionLog.read(log));
 * }</pre>
 *
 * <p>A redactor holds no state between runs and may be used by several threads at once.
 */
public final class Redactor {

    private static final Pattern HOST_PID = Pattern.compile("host-\\d+");

    private final Keyed keyed;
    private final RedactionRules rules;
    private final RedactionOptions options;

    private Redactor(PseudonymKey key, RedactionRules rules, RedactionOptions options) {
        this.keyed = new Keyed(key.bytes());
        this.rules = Objects.requireNonNull(rules, "rules");
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * A redactor.
     *
     * @param key     the key pseudonyms are drawn with
     * @param rules   what to look for beyond the built-in detectors, and what to keep
     * @param options what to do with the header
     * @return the redactor
     */
    public static Redactor of(PseudonymKey key, RedactionRules rules, RedactionOptions options) {
        return new Redactor(Objects.requireNonNull(key, "key"), rules, options);
    }

    /**
     * Redacts one session log as a run of its own.
     *
     * @param log the log
     * @return the redacted log (a torn last line the log was read without stays out)
     */
    public SessionLog redact(SessionLog log) {
        ShareFile.Session file = new ShareFile.Session(log.session() + SessionLog.SUFFIX, log);
        return ((ShareFile.Session) redactFiles(List.of(file)).files().getFirst().redacted()).log();
    }

    /**
     * Redacts files that are shared together: one value gets one pseudonym in all of them.
     *
     * @param files the files, of any kinds
     * @return each file redacted, in the order given, with what was replaced
     * @throws IllegalArgumentException when a line of a flow or confirm log is not JSON
     */
    public RedactionResult redactFiles(List<? extends ShareFile> files) {
        Dictionary dictionary = new Dictionary();
        Collector collector = new Collector(rules, dictionary);
        SessionTimes times = new SessionTimes(keyed);
        Map<String, String> sessionIds = new LinkedHashMap<>();
        for (ShareFile f : files) {
            switch (f) {
                case ShareFile.Session s -> {
                    collectHeader(s.log().header(), collector);
                    collectEntries(s.log(), collector);
                    if (options.shiftStartTime()) {
                        sessionIds.put(s.log().session(), times.shift(s.log().session()));
                    }
                }
                case ShareFile.FlowLog l -> lines(l.name(), l.lines(), new Zone.FlowLine(), collector);
                case ShareFile.ConfirmLog l -> lines(l.name(), l.lines(), new Zone.ConfirmLine(), collector);
            }
        }
        Pseudonyms pseudonyms = dictionary.assign(new Templates(keyed));
        List<RedactedFile> out = new ArrayList<>();
        for (ShareFile f : files) {
            Rewriter rewriter = new Rewriter(rules, pseudonyms, keyed, sessionIds);
            ShareFile redacted = switch (f) {
                case ShareFile.Session s -> new ShareFile.Session(rename(s.name(), sessionIds),
                        new SessionLog(header(s.log().header(), rewriter, times), entries(s.log(), rewriter)));
                case ShareFile.FlowLog l -> new ShareFile.FlowLog(rename(l.name(), sessionIds),
                        lines(l.name(), l.lines(), new Zone.FlowLine(), rewriter));
                case ShareFile.ConfirmLog l -> new ShareFile.ConfirmLog(rename(l.name(), sessionIds),
                        lines(l.name(), l.lines(), new Zone.ConfirmLine(), rewriter));
            };
            out.add(new RedactedFile(f, redacted, rewriter.tally.counts()));
        }
        return new RedactionResult(out, pseudonyms.size(), pseudonyms.secondChoices(), pseudonyms.replaced());
    }

    private static String rename(String name, Map<String, String> sessionIds) {
        for (Map.Entry<String, String> e : sessionIds.entrySet()) {
            if (name.startsWith(e.getKey())) {
                return e.getValue() + name.substring(e.getKey().length());
            }
        }
        return name;
    }

    private void collectHeader(LogHeader h, Collector collector) {
        if (!options.keepHostSession() && h.hostSession() != null) {
            collector.dictionary.add(HOST_PID.matcher(h.hostSession()).matches() ? ValueKind.ID : ValueKind.TEXT,
                    h.hostSession());
        }
        for (String arg : h.serverCommand()) {
            if (!options.keepServerPaths()) {
                for (String segment : CommandPaths.personalSegments(arg)) {
                    collector.dictionary.add(ValueKind.PATH, segment);
                }
            }
            collector.text(arg, Zone.Data.plain(null));
        }
        for (JsonNode v : h.extra().values()) {
            walk(dev.stretto.trace.json.CanonicalJson.write(v), v, Zone.Data.plain(null), collector);
        }
    }

    private LogHeader header(LogHeader h, Rewriter rewriter, SessionTimes times) {
        List<String> command = new ArrayList<>();
        for (String arg : h.serverCommand()) {
            command.add(rewriter.plainText(arg));
        }
        String hostSession = h.hostSession();
        if (hostSession != null && !options.keepHostSession()) {
            hostSession = rewriter.plainText(hostSession);
        }
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        h.extra().forEach((k, v) -> {
            String json = dev.stretto.trace.json.CanonicalJson.write(v);
            String r = walk(json, v, Zone.Data.plain(k), rewriter);
            extra.put(k, r == json ? v : dev.stretto.trace.json.CanonicalJson.parse(r));
        });
        boolean shift = options.shiftStartTime();
        return new LogHeader(h.version(), shift ? times.shift(h.session()) : h.session(),
                shift ? times.shift(h.startedUnixMs()) : h.startedUnixMs(), command, h.domain(), h.agentModel(),
                hostSession, h.serverName(), extra);
    }

    private static void collectEntries(SessionLog log, Collector collector) {
        for (List<JsonNode> listing : ToolListings.of(log)) {
            for (JsonNode t : listing) {
                JsonNode name = t.get("name");
                if (name != null && name.isTextual()) {
                    collector.dictionary.tool(name.textValue());
                }
            }
        }
        RequestTracker tracker = new RequestTracker(collector.dictionary);
        for (LogEntry e : log.entries()) {
            entry(e, tracker, collector);
        }
    }

    private static List<LogEntry> entries(SessionLog log, Rewriter rewriter) {
        RequestTracker tracker = new RequestTracker(null);
        List<LogEntry> out = new ArrayList<>(log.entries().size());
        for (LogEntry e : log.entries()) {
            Payload p = entry(e, tracker, rewriter);
            out.add(p == e.payload() ? e : new LogEntry(e.tMs(), e.from(), p));
        }
        return out;
    }

    /** One entry through a pass: the payload it becomes (the same instance when nothing changed). */
    private static Payload entry(LogEntry e, RequestTracker tracker, Pass pass) {
        return switch (e.payload()) {
            case Payload.Raw r -> {
                String t = pass.text(r.text(), Zone.Data.plain(null));
                yield t == r.text() ? r : new Payload.Raw(t);
            }
            case Payload.Message m -> {
                JsonNode tree = m.tree().orElse(null);
                if (tree == null) {
                    // Not JSON after all (a hand-made log): its text, as a raw line.
                    String t = pass.text(m.json(), Zone.Data.plain(null));
                    yield t == m.json() ? m : new Payload.Raw(t);
                }
                Zone zone = e.from() == Source.CONTEXT ? new Zone.ContextLine()
                        : new Zone.Rpc(tracker.observe(tree, e.from()));
                String json = walk(m.json(), tree, zone, pass);
                yield json == m.json() ? m : new Payload.Message(json);
            }
        };
    }

    private static List<String> lines(String name, List<String> lines, Zone zone, Pass pass) {
        List<String> out = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            JsonNode tree;
            try {
                tree = JsonWalk.parse(line);
            } catch (IOException notJson) {
                throw new IllegalArgumentException(name + ": line " + (i + 1) + " of the lines given is not JSON");
            }
            out.add(walk(line, tree, zone, pass));
        }
        return out;
    }

    private static String walk(String json, JsonNode tree, Zone zone, Pass pass) {
        try {
            return JsonWalk.walk(json, tree, zone, pass);
        } catch (IOException e) {
            // The text was parsed into the tree already; it cannot fail to stream.
            throw new IllegalStateException("JSON that parsed failed to stream: " + e.getMessage(), e);
        }
    }
}
