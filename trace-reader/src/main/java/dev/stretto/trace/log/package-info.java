/**
 * API: the session log as a model. {@link dev.stretto.trace.log.SessionLog} reads a log file
 * ({@code stretto_mcp_log} 1 and 2) into its {@link dev.stretto.trace.log.LogHeader} and
 * {@link dev.stretto.trace.log.LogEntry}s and writes it back byte for byte; {@link
 * dev.stretto.trace.log.LineClassifier} decides how a wire line is logged (a JSON message or
 * raw text).
 */
package dev.stretto.trace.log;
