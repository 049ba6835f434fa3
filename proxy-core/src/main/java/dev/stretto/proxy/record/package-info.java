/**
 * Internal: recording a session. {@link dev.stretto.proxy.record.LogWriter} stamps each line
 * and hands it, off the forwarding path, to the session's {@link
 * dev.stretto.proxy.RecordingSink}s and listener; {@link dev.stretto.proxy.record.LogFileSink}
 * is the session log file, created by {@link dev.stretto.proxy.record.SessionLogFile}; the
 * rest keeps secrets out of logs and old logs out of the record directory. Not exported by the
 * module; the API is {@link dev.stretto.proxy.RecordingSink} and {@link
 * dev.stretto.proxy.MemoryRecording}.
 */
package dev.stretto.proxy.record;
