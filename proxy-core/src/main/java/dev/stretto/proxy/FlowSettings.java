package dev.stretto.proxy;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Flow;
import dev.stretto.proxy.flow.decide.Exploration;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.ServedFlow;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * A flow a session serves ({@code --flow FILE} and every {@code --flow-*} option, and {@code
 * --task-id}): after each of the agent's tool calls the session makes the read-only lookups the
 * flow expects next, and hands their results back with the call's answer; in shadow it only
 * decides and logs. Made by {@link #builder}, whose {@link Builder#build()} settles the decider
 * and checks that the flow can be served with it, so that a session never starts with a flow it
 * cannot serve. A flow that decides with its arbiter asks the System-One model: its session
 * needs an {@link Oracle} ({@link ActiveSettings.Builder#oracle}). Immutable.
 *
 * <pre>{@code
 * FlowSettings served = FlowSettings.builder(FlowFiles.read(file), file.toString())
 *         .threshold(0.3)
 *         .shadow(true)
 *         .build();
 * }</pre>
 */
public final class FlowSettings {

    private final Flow flow;
    private final String source;
    private final FlowOptions options;
    private final Path log;

    private FlowSettings(Flow flow, String source, FlowOptions options, Path log) {
        this.flow = flow;
        this.source = source;
        this.options = options;
        this.log = log;
    }

    /**
     * A builder with the defaults: threshold 0.3, the flow's own decider, 8 lookups per call, 40
     * per session, 300 System-One questions, every read tool, not in shadow, no exploration, the
     * session id as the task id, the default flow log.
     *
     * @param flow   the flow
     * @param source how messages name it (the path it was read from, as given)
     * @return the builder
     */
    public static Builder builder(Flow flow, String source) {
        return new Builder(Objects.requireNonNull(flow, "flow"), Objects.requireNonNull(source, "source"));
    }

    /**
     * The flow.
     *
     * @return the flow served
     */
    public Flow flow() {
        return flow;
    }

    /**
     * How messages name the flow.
     *
     * @return the name given, such as its path
     */
    public String source() {
        return source;
    }

    /**
     * The decision threshold ({@code --flow-threshold}): how likely a lookup must be, times how
     * often its arguments' binding matched the agent, to be made.
     *
     * @return from 0 to 1
     */
    public double threshold() {
        return options.threshold();
    }

    /**
     * The decider that serves the flow: the one asked for, else the flow's arbiter when it has
     * one, else reach when it has the counts, else habit.
     *
     * @return the decider chosen
     */
    public DeciderKind decider() {
        return options.decider();
    }

    /**
     * The most lookups after one call ({@code --flow-per-call}).
     *
     * @return 0 or more
     */
    public int perCall() {
        return options.perCall();
    }

    /**
     * The most lookups in a session ({@code --flow-per-session}).
     *
     * @return 0 or more
     */
    public int perSession() {
        return options.perSession();
    }

    /**
     * The most System-One questions in a session ({@code --flow-questions}).
     *
     * @return 0 or more
     */
    public int questions() {
        return options.maxQuestions();
    }

    /**
     * The only tools the flow may look up ({@code --flow-tools}).
     *
     * @return the tools, or null for every read tool of the flow the server does not list as a
     *         write
     */
    public Set<String> tools() {
        return options.tools();
    }

    /**
     * Whether the flow only decides and logs ({@code --flow-shadow}): the host gets the server's
     * answers unchanged.
     *
     * @return true in shadow
     */
    public boolean shadow() {
        return options.shadow();
    }

    /**
     * The share of decisions that explore ({@code --flow-explore}): with this probability a
     * decision takes another lookup that binds than the rule's, and logs its propensity.
     *
     * @return from 0 to 1, or null when the flow does not explore
     */
    public Double exploreEpsilon() {
        return options.exploration() == null ? null : options.exploration().epsilon();
    }

    /**
     * The seed of the exploration's draws ({@code --flow-explore-seed}).
     *
     * @return the seed, an unsigned 64-bit number; 0 when the flow does not explore
     */
    public long exploreSeed() {
        return options.exploration() == null ? 0 : options.exploration().seed();
    }

    /**
     * The task, which picks the arbiter's fold ({@code --task-id}).
     *
     * @return the task id, or null for the session id
     */
    public String taskId() {
        return options.taskId();
    }

    /**
     * Where each decision is appended ({@code --flow-log FILE}; a leading {@code ~} is the home
     * directory of {@link ProxyConfig#host()}).
     *
     * @return the flow log, or null for {@code <session>.flow.jsonl} next to the session log when
     *         the session is recorded, and none otherwise
     */
    public Path log() {
        return log;
    }

    /**
     * The same settings with the decisions appended to another file (a listener's session has
     * a flow log of its own).
     *
     * @param file the flow log, or null for the default
     * @return the settings
     */
    public FlowSettings withLog(Path file) {
        return new FlowSettings(flow, source, options, file);
    }

    /** Builds {@link FlowSettings}. Not thread-safe. */
    public static final class Builder {
        private final Flow flow;
        private final String source;
        private double threshold = FlowOptions.DEFAULTS.threshold();
        private DeciderKind decider;
        private int perCall = FlowOptions.DEFAULTS.perCall();
        private int perSession = FlowOptions.DEFAULTS.perSession();
        private int questions = FlowOptions.DEFAULTS.maxQuestions();
        private Set<String> tools;
        private boolean shadow;
        private Exploration exploration;
        private String taskId;
        private Path log;

        private Builder(Flow flow, String source) {
            this.flow = flow;
            this.source = source;
        }

        /**
         * The decision threshold ({@code --flow-threshold}, default 0.3).
         *
         * @param p the threshold
         * @return this builder
         */
        public Builder threshold(double p) {
            this.threshold = p;
            return this;
        }

        /**
         * The decider ({@code --flow-decider}).
         *
         * @param kind the decider, or null for the flow's own
         * @return this builder
         */
        public Builder decider(DeciderKind kind) {
            this.decider = kind;
            return this;
        }

        /**
         * The most lookups after one call ({@code --flow-per-call}, default 8).
         *
         * @param n 0 or more
         * @return this builder
         */
        public Builder perCall(int n) {
            this.perCall = n;
            return this;
        }

        /**
         * The most lookups in a session ({@code --flow-per-session}, default 40).
         *
         * @param n 0 or more
         * @return this builder
         */
        public Builder perSession(int n) {
            this.perSession = n;
            return this;
        }

        /**
         * The most System-One questions in a session ({@code --flow-questions}, default 300).
         *
         * @param n 0 or more
         * @return this builder
         */
        public Builder questions(int n) {
            this.questions = n;
            return this;
        }

        /**
         * The only tools the flow may look up ({@code --flow-tools}).
         *
         * @param names the tools, or null for every read tool
         * @return this builder
         */
        public Builder tools(Set<String> names) {
            this.tools = names;
            return this;
        }

        /**
         * Decide and log, but look nothing up ({@code --flow-shadow}).
         *
         * @param on true for shadow
         * @return this builder
         */
        public Builder shadow(boolean on) {
            this.shadow = on;
            return this;
        }

        /**
         * Explore ({@code --flow-explore EPSILON --flow-explore-seed N}).
         *
         * @param epsilon the share of decisions that explore, 0 to 1
         * @param seed    the seed of the draws, an unsigned 64-bit number
         * @return this builder
         * @throws IllegalArgumentException when epsilon is not from 0 to 1
         */
        public Builder explore(double epsilon, long seed) {
            this.exploration = new Exploration(epsilon, seed);
            return this;
        }

        /**
         * The task, which picks the arbiter's fold ({@code --task-id}).
         *
         * @param id the task id, or null for the session id
         * @return this builder
         */
        public Builder taskId(String id) {
            this.taskId = id;
            return this;
        }

        /**
         * Where each decision is appended ({@code --flow-log FILE}).
         *
         * @param file the flow log, or null for the default
         * @return this builder
         */
        public Builder log(Path file) {
            this.log = file;
            return this;
        }

        /**
         * The settings, with the decider settled.
         *
         * @return the settings
         * @throws IllegalArgumentException when the threshold is not a number or a limit is
         *                                  negative
         * @throws ProxyStartException      when the flow cannot be served with the decider asked
         *                                  for (an arbiter of a flow learned without one, reach
         *                                  without reach counts), or its arbiter cannot be used;
         *                                  the message says how to serve it instead
         */
        public FlowSettings build() throws ProxyStartException {
            FlowOptions options = new FlowOptions(threshold, decider, perCall, perSession, questions, tools, shadow,
                    exploration, taskId);
            ServedFlow served = ServedFlow.of(dev.stretto.proxy.flow.model.Flow.of(flow), source, options, log);
            return new FlowSettings(flow, source, served.options(), log);
        }
    }
}
