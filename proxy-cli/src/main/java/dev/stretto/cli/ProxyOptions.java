package dev.stretto.cli;

import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.judge.JudgeSettings;
import dev.stretto.proxy.oracle.Oracle;
import java.nio.file.Path;

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
    record Active(boolean guards, boolean commit, Path context, FlowChoice flow, Judge judge, OracleChoice oracle,
                  Path policy) {

        /** Active mode without a flow, a judge or a policy. */
        Active(boolean guards, boolean commit, Path context) {
            this(guards, commit, context, null, null, null, null);
        }

        /** Active mode without a policy. */
        Active(boolean guards, boolean commit, Path context, FlowChoice flow, Judge judge, OracleChoice oracle) {
            this(guards, commit, context, flow, judge, oracle, null);
        }
    }

    /**
     * The flow to serve and how ({@code --flow FILE} and the {@code --flow-*} and
     * {@code --task-id} options), as given: the file is read when the session starts.
     *
     * @param file    {@code --flow FILE}
     * @param options how it is served; the decider null when {@code --flow-decider} is not given
     * @param log     {@code --flow-log FILE}, or null for the default
     */
    record FlowChoice(Path file, FlowOptions options, Path log) {
    }

    /**
     * The confirmation judge's options.
     *
     * @param settings {@code --confirm-judge}, {@code --confirm-threshold}, {@code --confirm-second},
     *                 {@code --confirm-second-shadow} and {@code --confirm-questions}, with the
     *                 default model (the environment may name another)
     * @param log      {@code --confirm-log FILE}, or null for the default
     */
    record Judge(JudgeSettings settings, Path log) {
    }

    /**
     * Who answers the System-One questions of a flow's arbiter and of the judge.
     *
     * @param mode  {@code --oracle} (default {@code jev})
     * @param cache {@code --oracle-cache DIR}, or null for {@code ~/.stretto/oracle-cache}
     */
    record OracleChoice(Oracle.Mode mode, Path cache) {

        /** The default: {@code jev}, with the default cache. */
        static final OracleChoice DEFAULT = new OracleChoice(Oracle.Mode.JEV, null);
    }
}
