package dev.stretto.cli.console.source;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a session is still being recorded: its id ends in the process id of its proxy (as
 * {@code --retain-days} reads it), and that process is alive and started no later than the
 * session. A process that started after the session has only been given a recycled pid.
 */
public final class Recording {

    private static final Pattern SESSION = Pattern.compile("\\d{8}T\\d{6}\\.\\d{3}Z-(\\d{1,18})(?:-\\d+)?");
    /** Clocks and the start time's resolution may differ by this much. */
    private static final long SLACK_MS = 2_000;

    private Recording() {
    }

    /**
     * Whether the proxy of a session is still running.
     *
     * @param session       the session id
     * @param startedUnixMs when the session started
     * @return true while its proxy runs
     */
    public static boolean isRecording(String session, long startedUnixMs) {
        Matcher m = SESSION.matcher(session);
        if (!m.matches()) {
            return false;
        }
        Optional<ProcessHandle> p;
        try {
            p = ProcessHandle.of(Long.parseLong(m.group(1)));
        } catch (NumberFormatException | SecurityException e) {
            return false;
        }
        if (p.isEmpty() || !p.get().isAlive()) {
            return false;
        }
        Optional<Instant> started = p.get().info().startInstant();
        return started.isEmpty() || started.get().toEpochMilli() <= startedUnixMs + SLACK_MS;
    }
}
