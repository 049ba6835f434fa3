package dev.stretto.cli;

import dev.stretto.proxy.FlowSettings;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Flow;
import java.nio.file.Path;
import java.util.Set;

/**
 * The options of one {@code stretto-proxy} run, as parsed.
 *
 * @param record     {@code --record DIR}, or null
 * @param recordSync {@code --record-sync}: each line is on disk in the log before it is forwarded
 * @param domain     {@code --domain NAME}, or null
 * @param agentModel {@code --agent-model MODEL}, or null
 * @param retainDays {@code --retain-days N}, or null
 * @param logLevel   {@code --log-level LEVEL}, or null for the default
 * @param shutdownGrace {@code --shutdown-grace SECONDS}, or null for the default
 * @param server     the command after {@code --}, or {@code --upstream URL} and its headers
 * @param active     {@code --guards}, {@code --commit}, {@code --context FILE}, {@code --flow
 *                   FILE} and {@code --confirm-judge}, or null when none is given (passive mode)
 */
record ProxyOptions(Path record, boolean recordSync, String domain, String agentModel, Integer retainDays,
                    String logLevel, java.time.Duration shutdownGrace, ServerChoice server, Active active) {

    /** Options without active mode or {@code --record-sync}. */
    ProxyOptions(Path record, String domain, String agentModel, Integer retainDays, String logLevel,
                 java.time.Duration shutdownGrace, ServerChoice server) {
        this(record, false, domain, agentModel, retainDays, logLevel, shutdownGrace, server, null);
    }

    /**
     * Active mode's options; at least one is given.
     *
     * @param guards  {@code --guards}: check the agent's calls against the guards of {@code --domain}
     * @param commit  {@code --commit}: add the stretto_commit tool
     * @param context {@code --context FILE}, or null
     * @param flow    {@code --flow FILE} and its options, or null
     * @param judge   {@code --confirm-judge} and its options, or null
     * @param oracle  {@code --oracle} and {@code --oracle-cache}, given a flow or the judge; else null
     * @param policy  {@code --policy FILE}, read when the session starts; or null
     */
    record Active(boolean guards, boolean commit, Path context, FlowChoice flow, JudgeSettings judge,
                  OracleChoice oracle, Path policy) {

        /** Active mode without a flow, a judge or a policy. */
        Active(boolean guards, boolean commit, Path context) {
            this(guards, commit, context, null, null, null, null);
        }

        /** Active mode without a policy. */
        Active(boolean guards, boolean commit, Path context, FlowChoice flow, JudgeSettings judge, OracleChoice oracle) {
            this(guards, commit, context, flow, judge, oracle, null);
        }
    }

    /**
     * The flow to serve and how ({@code --flow FILE} and the {@code --flow-*} and
     * {@code --task-id} options), as given: the file is read when the session starts.
     *
     * @param file       {@code --flow FILE}
     * @param threshold  {@code --flow-threshold}
     * @param decider    {@code --flow-decider}, or null for the flow's own
     * @param perCall    {@code --flow-per-call}
     * @param perSession {@code --flow-per-session}
     * @param questions  {@code --flow-questions}
     * @param tools      {@code --flow-tools}, or null for every read tool
     * @param shadow     {@code --flow-shadow}
     * @param epsilon    {@code --flow-explore}, or null for no exploration
     * @param seed       {@code --flow-explore-seed}
     * @param taskId     {@code --task-id}, or null
     * @param log        {@code --flow-log FILE}, or null for the default
     */
    record FlowChoice(Path file, double threshold, DeciderKind decider, int perCall, int perSession, int questions,
                      Set<String> tools, boolean shadow, Double epsilon, long seed, String taskId, Path log) {

        /** Copies the tools. */
        FlowChoice {
            tools = tools == null ? null : Set.copyOf(tools);
        }

        /**
         * The flow, read, served as these options ask.
         *
         * @param source how messages name it
         * @throws ProxyStartException when it cannot be served with the decider asked for
         */
        FlowSettings settings(Flow flow, String source) throws ProxyStartException {
            FlowSettings.Builder b = FlowSettings.builder(flow, source).threshold(threshold).decider(decider)
                    .perCall(perCall).perSession(perSession).questions(questions).tools(tools).shadow(shadow)
                    .taskId(taskId).log(log);
            if (epsilon != null) {
                b.explore(epsilon, seed);
            }
            return b.build();
        }
    }

    /**
     * Who answers the System-One questions of a flow's arbiter and of the judge.
     *
     * @param mode  {@code --oracle} (default {@code jev})
     * @param cache {@code --oracle-cache DIR}, or null for {@code ~/.stretto/oracle-cache}
     */
    record OracleChoice(OracleMode mode, Path cache) {

        /** The default: {@code jev}, with the default cache. */
        static final OracleChoice DEFAULT = new OracleChoice(OracleMode.JEV, null);
    }
}
