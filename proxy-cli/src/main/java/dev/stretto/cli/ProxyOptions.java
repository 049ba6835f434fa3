package dev.stretto.cli;

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
 */
record ProxyOptions(Path record, String domain, String agentModel, Integer retainDays, String logLevel,
                    java.time.Duration shutdownGrace, ServerChoice server) {
}
