/**
 * Internal: recording a session. {@link dev.stretto.proxy.record.LogWriter} stamps each line
 * and hands it, off the forwarding path, to the session's {@link
 * dev.stretto.proxy.RecordingSink}s and listener; {@link dev.stretto.proxy.record.LogFileSink}
 * is the session log file, created by {@link dev.stretto.proxy.record.SessionLogFile}; {@link
 * dev.stretto.proxy.record.Retention} keeps old logs out of the record directory. Secrets are
 * kept out of the log by {@code dev.stretto.proxy.redact}. Not exported by the
 * module; the API is {@link dev.stretto.proxy.RecordingSink} and {@link
 * dev.stretto.proxy.MemoryRecording}.
 */
package dev.stretto.proxy.record;
