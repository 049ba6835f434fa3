package dev.stretto.trace.episode;

import dev.stretto.trace.log.SessionLog;
import java.util.List;
import java.util.Objects;

/**
 * One recorded conversation in stretto's canonical shape, the same shape benchmark
 * trajectories are read into, so recorded sessions feed the same models.
 *
 * <p>From a session log ({@link #of(SessionLog)}): the id is the session, the task id is
 * empty, the trial 0 and the reward 0.0 (a log cannot tell whether the task succeeded; use
 * {@link #withReward(double)} when you know). Each {@code tools/call} request of the client
 * or the proxy becomes a {@link ToolCall} in an assistant turn, the first response to it a
 * {@link Event.ToolResult}, and the {@code context} entries user and assistant messages.
 * How calls group into turns is inferred from timing; see {@link Timeline}.
 *
 * @param id         the episode's id (a session log's session id)
 * @param taskId     the benchmark task, or empty when unknown
 * @param trial      the trial number
 * @param domain     the domain (a log's header domain, else {@code mcp})
 * @param agentModel the model that drove the agent (a log's header {@code agent_model}, else
 *                   the host's {@code clientInfo.name}, else {@code unknown})
 * @param reward     the task's reward, 0.0 when unknown
 * @param events     what happened, in order
 */
public record Episode(String id, String taskId, long trial, String domain, String agentModel, double reward,
                      List<Event> events) {

    /**
     * Checks the episode.
     *
     * @throws NullPointerException when a component other than {@code reward} and {@code trial} is null
     */
    public Episode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(agentModel, "agentModel");
        events = List.copyOf(events);
    }

    /**
     * Converts a session log; the same as {@code Timeline.of(log).episode()}.
     *
     * <p>Results: the first response (from the server or the proxy) to a call is its result;
     * later ones are ignored. It is an error for a JSON-RPC {@code error} (content: the error's
     * {@code message}, or the error as JSON) or {@code isError: true}. Its content is the
     * {@code text} of the result's {@code type:"text"} items joined with {@code '\n'}; without
     * any, {@code structuredContent} as JSON; without that, the whole result as JSON.
     *
     * @param log the session log
     * @return its episode
     */
    public static Episode of(SessionLog log) {
        return Timeline.of(log).episode();
    }

    /**
     * This episode with another reward.
     *
     * @param newReward the reward
     * @return the episode
     */
    public Episode withReward(double newReward) {
        return new Episode(id, taskId, trial, domain, agentModel, newReward, events);
    }

    /** {@return all tool calls of all assistant turns, in order} */
    public List<ToolCall> calls() {
        return events.stream()
                .filter(e -> e instanceof Event.Assistant)
                .flatMap(e -> ((Event.Assistant) e).calls().stream())
                .toList();
    }

    /**
     * The episode's JSON: compact, fields in the order of the reference's types, call
     * arguments with sorted keys, floats in Rust's spelling ({@code "reward":0.0}), absent
     * text and usage as {@code null}. One line, no newline.
     *
     * @return the JSON
     */
    public String toJson() {
        return EpisodeJson.write(this);
    }

    /**
     * Reads an episode from its JSON, as {@link #toJson()} writes it.
     *
     * @param json the JSON
     * @return the episode
     * @throws IllegalArgumentException if {@code json} is not an episode, with the reason
     */
    public static Episode fromJson(String json) {
        return EpisodeJson.read(json);
    }
}
