package dev.stretto.cli.console.index;

import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.Found;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.Source;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One row of the sessions page: what the console keeps of a session between requests.
 *
 * @param key           the log's key
 * @param session       the session id (for a log that cannot be read, its file name)
 * @param startedUnixMs when it started (for a log that cannot be read, from its name or the
 *                      file's time)
 * @param domain        the domain, or null
 * @param modes         what the proxy did, never empty
 * @param client        the host's clientInfo name, or null
 * @param agentModel    the agent's model (--agent-model), or null
 * @param durationMs    the t_ms of its last line
 * @param calls         the agent's calls (a commit is one call)
 * @param failed        calls answered with an error, refusals left out
 * @param refusals      calls the proxy refused (guards or judge)
 * @param lookups       the flow's lookups: made, or in shadow proposed
 * @param flowTools     the tools and sites its flow log names, to match it to flow files
 * @param search        the tool names and arguments of its calls, and its id, in lower case
 * @param problem       why the log cannot be read, or null
 */
public record SessionSummary(FileKey key, String session, long startedUnixMs, String domain, Set<Mode> modes,
                             String client, String agentModel, long durationMs, int calls, int failed, int refusals,
                             int lookups, Set<String> flowTools, String search, String problem) {

    private static final Pattern STARTED = Pattern.compile("(\\d{8}T\\d{6}\\.\\d{3})Z.*");
    private static final java.time.format.DateTimeFormatter ID_TIME =
            java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS").withZone(java.time.ZoneOffset.UTC);

    /** Copies the sets. */
    public SessionSummary {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(session, "session");
        modes = Set.copyOf(modes);
        flowTools = Set.copyOf(flowTools);
        Objects.requireNonNull(search, "search");
    }

    /** {@return whether the log could be read} */
    public boolean readable() {
        return problem == null;
    }

    /** {@return whether the proxy that records this session is still running} */
    public boolean recording() {
        return readable() && dev.stretto.cli.console.source.Recording.isRecording(session, startedUnixMs);
    }

    /**
     * The row of a session read whole.
     *
     * @param s the session
     * @return its row
     */
    public static SessionSummary of(SessionRead s) {
        Timeline t = s.timeline();
        EnumSet<Mode> modes = EnumSet.noneOf(Mode.class);
        int calls = 0;
        int failed = 0;
        int refusals = 0;
        int ownLookups = 0;
        StringBuilder search = new StringBuilder(256).append(t.header().session().toLowerCase(Locale.ROOT));
        for (Timeline.Turn turn : t.turns()) {
            for (Timeline.Call c : turn.calls()) {
                search.append('\n').append(c.name().toLowerCase(Locale.ROOT)).append(' ')
                        .append(c.arguments().toString().toLowerCase(Locale.ROOT));
                if (c.from() == Source.CLIENT) {
                    calls++;
                }
                if (c.isCommit()) {
                    modes.add(Mode.COMMIT);
                }
                if (c.isRefused()) {
                    refusals++;
                    modes.add(c.result().content().contains("(confirmation judge: ") ? Mode.JUDGE : Mode.GUARDS);
                } else if (c.result() != null && c.result().error()) {
                    failed++;
                }
                if (c.isLookup() && turn.commitOf(c) == null) {
                    ownLookups++;
                }
            }
        }
        for (LogEntry e : s.log().entries()) {
            if (e.from() == Source.CONTEXT) {
                modes.add(Mode.CONTEXT);
            } else if (e.from() == Source.PROXY && e.payload() instanceof Payload.Message m
                    && m.json().contains("\"" + Timeline.COMMIT_TOOL + "\"")) {
                // The rewritten tools/list that offers stretto_commit.
                modes.add(Mode.COMMIT);
            }
        }
        int lookups = ownLookups;
        Set<String> flowTools = new LinkedHashSet<>();
        if (s.runs() != null && !s.runs().isEmpty()) {
            int made = 0;
            int shadowProposed = 0;
            for (FlowRun r : s.runs()) {
                modes.add(r.shadow() ? Mode.SHADOW : Mode.FLOW);
                made += r.made() == null ? 0 : r.made();
                shadowProposed += r.shadow() ? r.proposed() : 0;
                if (r.call() != null) {
                    flowTools.add(r.call());
                }
                for (FlowRun.Decision d : r.decisions()) {
                    if (d.site() != null) {
                        flowTools.add(d.site());
                    }
                    if (d.tool() != null) {
                        flowTools.add(d.tool());
                    }
                }
            }
            lookups = modes.contains(Mode.FLOW) ? Math.max(made, ownLookups) : shadowProposed;
        } else if (ownLookups > 0) {
            modes.add(Mode.FLOW);
        }
        if (s.found().judgeLog().exists()) {
            modes.add(Mode.JUDGE);
        }
        if (modes.isEmpty()) {
            modes.add(Mode.PASSIVE);
        }
        return new SessionSummary(s.found().key(), t.header().session(), t.header().startedUnixMs(),
                t.header().domain(), modes, t.clientName(), t.header().agentModel(), t.endMs(), calls, failed,
                refusals, lookups, flowTools, search.toString(), null);
    }

    /**
     * The row of a log that cannot be read.
     *
     * @param found   the file
     * @param problem why
     * @return its row
     */
    public static SessionSummary unreadable(Found found, String problem) {
        String name = found.key().name();
        String session = name.substring(0, name.length() - ".jsonl".length());
        long started = found.log().modifiedNs() / 1_000_000;
        Matcher m = STARTED.matcher(session);
        if (m.matches()) {
            try {
                started = java.time.Instant.from(ID_TIME.parse(m.group(1))).toEpochMilli();
            } catch (java.time.DateTimeException notATime) {
                // The file's time then.
            }
        }
        return new SessionSummary(found.key(), session, started, null, Set.of(Mode.UNREADABLE), null, null, 0, 0, 0,
                0, 0, Set.of(), session.toLowerCase(Locale.ROOT) + "\n" + found.key().relative().toLowerCase(Locale.ROOT),
                problem);
    }
}
