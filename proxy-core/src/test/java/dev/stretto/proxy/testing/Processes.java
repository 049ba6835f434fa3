package dev.stretto.proxy.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a test can tell of a process the session started. */
public final class Processes {

    private Processes() {
    }

    /**
     * Whether the process still runs. A dead process stays a zombie until its parent collects
     * it: the JDK's reaper thread for the server (which a busy machine may run a moment late),
     * init for the server's children. Ending the server is the session's job, collecting it
     * is not, so a zombie counts as ended.
     */
    public static boolean running(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // "pid (comm) S ...": the name may hold anything, so the state follows its last ')'.
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }
}
