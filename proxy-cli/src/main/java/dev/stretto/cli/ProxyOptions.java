package dev.stretto.cli;

import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.oracle.Oracle;
import java.nio.file.Path;

/**
 * The options of one {@code stretto-proxy} run, as parsed.
 *
 * @param record     {@code --record DIR}, or null
 * @param domain     {@code --domain NAME}, or null
 * @param agentModel {@code --agent-model MODEL}, or null
 * @param retainDays {@code --retain-days N}, or null
 * @param logLevel   {@code --log-level LEVEL}, or null for the default
 * @param shutdownGrace {@code --shutdown-grace SECONDS}, or null for the default
 * @param server     the command after {@code --}, or {@code --upstream URL} and its headers
 * @param active     {@code --guards}, {@code --commit}, {@code --context FILE} and {@code --flow
 *                   FILE}, or null when none is given (passive mode)
 */
record ProxyOptions(Path record, String domain, String agentModel, Integer retainDays, String logLevel,
                    java.time.Duration shutdownGrace, ServerChoice server, Active active) {

    /** Options without active mode. */
    ProxyOptions(Path record, String domain, String agentModel, Integer retainDays, String logLevel,
                 java.time.Duration shutdownGrace, ServerChoice server) {
        this(record, domain, agentModel, retainDays, logLevel, shutdownGrace, server, null);
    }

    /**
     * Active mode's options; at least one is given.
     *
     * @param guards  {@code --guards}: check the agent's calls against the guards of {@code --domain}
     * @param commit  {@code --commit}: add the stretto_commit tool
     * @param context {@code --context FILE}, or null
     * @param flow    {@code --flow FILE} and its options, or null
     */
    record Active(boolean guards, boolean commit, Path context, FlowChoice flow) {

        /** Active mode without a flow. */
        Active(boolean guards, boolean commit, Path context) {
            this(guards, commit, context, null);
        }
    }

    /**
     * The flow to serve and how ({@code --flow FILE} and the {@code --flow-*}, {@code --task-id}
     * and {@code --oracle*} options), as given: the file is read when the session starts.
     *
     * @param file        {@code --flow FILE}
     * @param options     how it is served; the decider null when {@code --flow-decider} is not given
     * @param log         {@code --flow-log FILE}, or null for the default
     * @param oracle      {@code --oracle} (default {@code jev})
     * @param oracleCache {@code --oracle-cache DIR}, or null for {@code ~/.stretto/oracle-cache}
     */
    record FlowChoice(Path file, FlowOptions options, Path log, Oracle.Mode oracle, Path oracleCache) {
    }
}
