package dev.stretto.cli;

import dev.stretto.proxy.judge.JudgeSettings;
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
 * @param active     {@code --guards}, {@code --commit} and {@code --context FILE}, or null when
 *                   none is given (passive mode)
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
     * @param judge   {@code --confirm-judge} and its options, or null
     */
    record Active(boolean guards, boolean commit, Path context, Judge judge) {

        /** Active mode without the judge. */
        Active(boolean guards, boolean commit, Path context) {
            this(guards, commit, context, null);
        }
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
}
