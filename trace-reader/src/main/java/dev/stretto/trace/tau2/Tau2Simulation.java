package dev.stretto.trace.tau2;

import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes a recorded session in τ²-bench's simulation shape (a {@code SimulationRun} of its
 * results files), so tools made for benchmark trajectories can read recorded sessions.
 *
 * <p>Each turn becomes an assistant message with {@code tool_calls} and no content, each
 * result a tool message ({@code error} set for failed calls), and the conversation user and
 * assistant messages; {@code turn_idx} counts the messages from 0. A timeline read by {@link
 * Timeline.TurnRule#AGENT} (as {@code stretto episode --tau2} reads logs) has a flow's lookups
 * among the tool calls of the agent's message they were handed back with; by {@link
 * Timeline.TurnRule#FLOW} each is a message of its own. Times are UTC in Python's
 * {@code isoformat} spelling, from the header's start time plus each entry's {@code t_ms}.
 * What a log cannot know is written as τ²-bench writes an unknown: the costs, usage and
 * seed are {@code null}, and {@code reward_info} holds only the reward given (0.0 unless you
 * know better) with an empty {@code reward_basis}. A session ends when its host closes it,
 * so {@code termination_reason} is {@code user_stop}.
 */
public final class Tau2Simulation {

    private static final DateTimeFormatter ISO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    private Tau2Simulation() {
    }

    /**
     * The {@code SimulationRun} JSON of a session, on one line.
     *
     * @param timeline the session
     * @param reward   the reward to record
     * @return the JSON
     */
    public static String toJson(Timeline timeline, double reward) {
        long started = timeline.header().startedUnixMs();
        StringBuilder out = new StringBuilder(1024);
        out.append("{\"id\":");
        JsonText.appendQuoted(out, timeline.header().session());
        out.append(",\"task_id\":\"\"");
        out.append(",\"timestamp\":").append(time(started, 0));
        out.append(",\"start_time\":").append(time(started, 0));
        out.append(",\"end_time\":").append(time(started, timeline.endMs()));
        out.append(",\"duration\":").append(CanonicalJson.formatDouble(timeline.endMs() / 1000.0));
        out.append(",\"termination_reason\":\"user_stop\"");
        out.append(",\"agent_cost\":null,\"user_cost\":null");
        out.append(",\"reward_info\":{\"reward\":").append(CanonicalJson.formatDouble(reward))
                .append(",\"db_check\":null,\"env_assertions\":null,\"action_checks\":null,\"nl_assertions\":null,"
                        + "\"communicate_checks\":null,\"reward_basis\":[],\"reward_breakdown\":null,\"info\":null}");
        out.append(",\"messages\":[");
        int idx = 0;
        for (Timeline.Step step : timeline.steps()) {
            if (idx > 0) {
                out.append(',');
            }
            String ts = time(started, step.tMs());
            switch (step) {
                case Timeline.Said s -> {
                    out.append("{\"role\":").append(s.role() == Timeline.Role.USER ? "\"user\"" : "\"assistant\"");
                    out.append(",\"content\":");
                    JsonText.appendQuoted(out, s.text());
                    participantTail(out, "null", idx, ts);
                }
                case Timeline.TurnStarted t -> {
                    StringBuilder calls = new StringBuilder("[");
                    for (Timeline.Call c : t.turn().calls()) {
                        if (calls.length() > 1) {
                            calls.append(',');
                        }
                        calls.append("{\"id\":");
                        JsonText.appendQuoted(calls, c.id());
                        calls.append(",\"name\":");
                        JsonText.appendQuoted(calls, c.name());
                        calls.append(",\"arguments\":");
                        CanonicalJson.append(calls, c.arguments());
                        calls.append(",\"requestor\":\"assistant\"}");
                    }
                    calls.append(']');
                    out.append("{\"role\":\"assistant\",\"content\":null");
                    participantTail(out, calls.toString(), idx, ts);
                }
                case Timeline.ResultArrived r -> {
                    out.append("{\"id\":");
                    JsonText.appendQuoted(out, r.call().id());
                    out.append(",\"role\":\"tool\",\"content\":");
                    JsonText.appendQuoted(out, r.call().result().content());
                    out.append(",\"requestor\":\"assistant\",\"error\":").append(r.call().result().error());
                    out.append(",\"turn_idx\":").append(idx).append(",\"timestamp\":").append(ts).append('}');
                }
            }
            idx++;
        }
        out.append("],\"trial\":0,\"seed\":null}");
        return out.toString();
    }

    private static void participantTail(StringBuilder out, String toolCalls, int idx, String ts) {
        out.append(",\"tool_calls\":").append(toolCalls)
                .append(",\"turn_idx\":").append(idx)
                .append(",\"timestamp\":").append(ts)
                .append(",\"cost\":null,\"usage\":null,\"raw_data\":null}");
    }

    private static String time(long startedUnixMs, long tMs) {
        return JsonText.quote(ISO.format(Instant.ofEpochMilli(startedUnixMs + tMs)));
    }
}
