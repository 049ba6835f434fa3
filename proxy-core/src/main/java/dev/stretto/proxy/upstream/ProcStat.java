package dev.stretto.proxy.upstream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc/<pid>/stat} says of a process: its state and its parent.
 *
 * @param state  the state letter: {@code Z} for a zombie (dead, waiting for its parent to
 *               collect it), {@code R}, {@code S} and others while it lives
 * @param parent the parent's pid
 */
record ProcStat(char state, long parent) {

    /** Whether the process is dead and waits for its parent to collect it. */
    boolean zombie() {
        return state == 'Z';
    }

    /** What {@code /proc} says of process {@code pid}, or null when there is no such process or no {@code /proc}. */
    static ProcStat of(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (comm) S ppid ...": the name may hold anything, so the fields follow its last ')'.
            int close = stat.lastIndexOf(')');
            String[] fields = stat.substring(close + 2).split(" ", 3);
            return new ProcStat(fields[0].charAt(0), Long.parseLong(fields[1]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
