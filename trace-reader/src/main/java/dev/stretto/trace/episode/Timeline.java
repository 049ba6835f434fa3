package dev.stretto.trace.episode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session as a timeline: what was said, each inferred LLM turn with its calls, and when
 * each result came back, with the times an {@link Episode} leaves out. {@link #episode()}
 * is the episode of the same session.
 *
 * <p>MCP carries no turns, so they are inferred from timing, with these rules:
 * <ol>
 *   <li>A call joins the current turn while any call of that turn still awaits its
 *       response (parallel calls). A call that is never answered nor cancelled therefore
 *       keeps its turn open for every later call.</li>
 *   <li>Otherwise a client call joins the current turn when it is sent at most
 *       {@link #SAME_TURN_MS} after the turn's last answer (a cancellation is no answer,
 *       and a turn none of whose calls was answered is never joined this way),
 *       nothing but tool results has happened since the turn began (no user or assistant
 *       message), and none of its argument values first appeared in what the turn returned.
 *       An argument value here is any string or number in the arguments, nested ones too,
 *       of at least two characters; it first appeared in the turn when the turn's results
 *       contain it and nothing known before does: the conversation so far, the arguments of
 *       every earlier call and the results of earlier turns. A value the agent could only
 *       have learned from this turn's results means the model read them: a new turn.</li>
 *   <li>A call of the proxy's own (a lookup, id {@code stretto-<n>}) joins the current turn
 *       only under rule 1.</li>
 *   <li>Every other call starts a new turn. {@code notifications/cancelled} releases the
 *       cancelled call from holding its turn open; a request that reuses the id of a call
 *       still pending replaces it, and the replaced call gets no result.</li>
 * </ol>
 *
 * <p>When an agent's call stops awaiting its response is where the two {@link TurnRule}s
 * differ. A flow's lookups are made after the server has answered the agent's call, while the
 * proxy holds that answer back; the agent gets it, with the lookups' results appended, from
 * the proxy's own copy, logged once the lookups are done. By {@link TurnRule#FLOW} (the
 * reference's reading, which flows decide and learn on: {@link #of(SessionLog)}) the server's
 * answer ends the wait, so each lookup starts a turn of its own right after the result it
 * follows. By {@link TurnRule#AGENT} the proxy's copy ends it, so the lookups join the turn of
 * the call they were made for, the 500 ms of rule 2 count from the copy, and a served session
 * has as many turns as the agent took.
 *
 * @param header     the log's header
 * @param domain     the header's domain, else {@code mcp}
 * @param agentModel the header's agent model, else the host's {@code clientInfo.name}, else
 *                   {@code unknown} (the episode's rule)
 * @param clientName the host's {@code clientInfo.name} from its first {@code initialize}, or null
 * @param steps      what happened, in log order
 * @param turns      the turns, in the order they began
 * @param endMs      the {@code t_ms} of the log's last entry (0 for a log without entries)
 */
public record Timeline(LogHeader header, String domain, String agentModel, String clientName, List<Step> steps,
                       List<Turn> turns, long endMs) {

    /**
     * How long after a turn's last answer a client call may come and still be part of that
     * turn, in milliseconds: hosts run a turn's calls as the model streams them, and a new
     * LLM turn takes longer because the model reads the results first.
     */
    public static final long SAME_TURN_MS = 500;

    /**
     * The name of the tool the proxy adds with {@code --commit}: a call of it is answered by
     * the proxy, which makes the calls it lists as its own requests.
     */
    public static final String COMMIT_TOOL = "stretto_commit";

    /**
     * Checks the timeline.
     *
     * @throws NullPointerException when {@code header}, {@code steps} or {@code turns} is null
     */
    public Timeline {
        Objects.requireNonNull(header, "header");
        steps = List.copyOf(steps);
        turns = List.copyOf(turns);
    }

    /**
     * Builds the timeline of a session log. Never fails: what it cannot use it skips.
     *
     * @param log the session log
     * @return its timeline
     */
    public static Timeline of(SessionLog log) {
        return of(log, TurnRule.FLOW);
    }

    /**
     * Builds the timeline of a session log, its turns read by {@code rule}. Never fails: what
     * it cannot use it skips. The two differ only for a session served with a flow that made
     * lookups.
     *
     * @param log  the session log
     * @param rule when an agent's call stops awaiting its response
     * @return its timeline
     */
    public static Timeline of(SessionLog log, TurnRule rule) {
        return TimelineBuilder.read(log, Objects.requireNonNull(rule, "rule"));
    }

    /** When an agent's call, whose answer the proxy held back for a flow's lookups, stops awaiting it. */
    public enum TurnRule {
        /**
         * When the server answers: each of the flow's lookups is a turn of its own, right after
         * the result it follows. The reference's reading; flows decide and learn on it, since
         * a lookup's arguments are bound from the results before it.
         */
        FLOW,
        /**
         * When the proxy hands the agent its copy with the lookups' results: the lookups join
         * the turn of the call they were made for, and the turns are the LLM turns the agent
         * took.
         */
        AGENT
    }

    /** Who said something. */
    public enum Role {
        /** The customer or user. */
        USER,
        /** The agent's model, in words. */
        ASSISTANT
    }

    /** One step of the timeline. */
    public sealed interface Step {
        /** {@return when it was logged, in milliseconds after the proxy started} */
        long tMs();
    }

    /**
     * A message of the conversation, from a {@code context} entry.
     *
     * @param tMs  when it was logged
     * @param role who said it
     * @param text what was said (empty when the context line's content was not a string)
     */
    public record Said(long tMs, Role role, String text) implements Step {
    }

    /**
     * A turn began: its first call was sent.
     *
     * @param tMs  when the first call was logged
     * @param turn the turn, with every call that joined it later too
     */
    public record TurnStarted(long tMs, Turn turn) implements Step {
    }

    /**
     * A call's result came back (the first response to it).
     *
     * @param tMs  when the response was logged
     * @param call the call, whose {@link Call#result()} is this result
     */
    public record ResultArrived(long tMs, Call call) implements Step {
    }

    /**
     * One inferred LLM turn.
     *
     * @param number 1 for the session's first turn, then counting up
     * @param startMs when its first call was sent
     * @param calls  its calls, in the order they were sent
     */
    public record Turn(int number, long startMs, List<Call> calls) {
        /**
         * Checks the turn.
         *
         * @throws NullPointerException when {@code calls} is null
         */
        public Turn {
            calls = List.copyOf(calls);
        }

        /**
         * The {@value Timeline#COMMIT_TOOL} call of this turn that made {@code call}: the first
         * commit sent before it whose result had not come back when it was sent. A commit's
         * calls are the proxy's own, like a flow's lookups; this tells the two apart.
         *
         * @param call one of this turn's calls
         * @return the commit, or null when {@code call} is not a call a commit made
         */
        public Call commitOf(Call call) {
            if (!call.isLookup()) {
                return null;
            }
            for (Call k : calls) {
                if (k == call) {
                    return null;
                }
                if (k.isCommit() && k.sentMs() <= call.sentMs()
                        && (k.result() == null || k.result().tMs() >= call.sentMs())) {
                    return k;
                }
            }
            return null;
        }
    }

    /**
     * One {@code tools/call} request.
     *
     * @param id          the id as the episode spells it (a string as it is, a number as
     *                    its JSON text)
     * @param name        the tool's name ({@code ""} when the request had none)
     * @param arguments   its arguments, {@code {}} when the request had none
     * @param from        {@link Source#CLIENT} for the agent's calls, {@link Source#PROXY}
     *                    for the proxy's own lookups
     * @param sentMs      when the request was logged
     * @param turn        the {@link Turn#number()} of its turn
     * @param result      its result, or null when none came back
     * @param deliveredMs when the proxy handed the agent its own copy of the server's result,
     *                    with a flow's lookups appended, or null when the agent got the
     *                    server's result as it came (or none)
     * @param cancelledMs when the host cancelled it, or null
     * @param replaced    whether a later request reused its id while it was pending
     */
    public record Call(String id, String name, JsonNode arguments, Source from, long sentMs, int turn,
                       Result result, Long deliveredMs, Long cancelledMs, boolean replaced) {

        /**
         * Whether this is one of the proxy's own calls: a flow's lookup, or a call a
         * {@code stretto_commit} made.
         *
         * @return true for the proxy's own call
         */
        public boolean isLookup() {
            return from == Source.PROXY;
        }

        /** {@return whether this is the agent's call of {@value Timeline#COMMIT_TOOL}, which the proxy answers itself} */
        public boolean isCommit() {
            return from == Source.CLIENT && COMMIT_TOOL.equals(name);
        }

        /**
         * Whether the proxy itself answered one of the agent's calls with an error: the policy
         * check refused it. (A commit the proxy answers with an error is not refused: some
         * call it made failed.)
         *
         * @return true for a refused call
         */
        public boolean isRefused() {
            return from == Source.CLIENT && !isCommit() && result != null && result.from() == Source.PROXY
                    && result.error();
        }

        /** {@return milliseconds from the request to its result, or -1 when none came back} */
        public long durationMs() {
            return result == null ? -1 : result.tMs() - sentMs;
        }

        /** {@return the call as an episode holds it} */
        public ToolCall toolCall() {
            return new ToolCall(id, name, arguments);
        }
    }

    /**
     * The result of a call.
     *
     * @param tMs     when the response was logged
     * @param from    who answered: {@link Source#SERVER}, or {@link Source#PROXY} for the
     *                proxy's own answers (refusals, the commit tool)
     * @param error   a JSON-RPC error or {@code isError: true}
     * @param content the result's text, as in {@link Event.ToolResult#content()}
     */
    public record Result(long tMs, Source from, boolean error, String content) {
    }

    /**
     * Every call of the session in the order it was sent (calls only ever join the newest
     * turn, so this is the turns' calls one after the other).
     *
     * @return the calls
     */
    public List<Call> calls() {
        List<Call> all = new ArrayList<>();
        for (Turn t : turns) {
            all.addAll(t.calls());
        }
        return all;
    }

    /** {@return how many calls came back as errors} */
    public long failedCalls() {
        return turns.stream().flatMap(t -> t.calls().stream())
                .filter(c -> c.result() != null && c.result().error())
                .count();
    }

    /** {@return the episode of this session: the steps as events, without times} */
    public Episode episode() {
        List<Event> events = new ArrayList<>(steps.size());
        for (Step s : steps) {
            switch (s) {
                case Said said -> events.add(said.role() == Role.USER
                        ? new Event.User(said.text())
                        : new Event.Assistant(said.text(), List.of(), null));
                case TurnStarted ts -> events.add(new Event.Assistant(null,
                        ts.turn().calls().stream().map(Call::toolCall).toList(), null));
                case ResultArrived ra -> events.add(new Event.ToolResult(ra.call().id(), ra.call().name(),
                        ra.call().result().error(), ra.call().result().content()));
            }
        }
        return new Episode(header.session(), "", 0, domain, agentModel, 0.0, events);
    }
}
