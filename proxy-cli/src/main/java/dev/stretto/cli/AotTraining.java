package dev.stretto.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The training run of a start-up cache of {@code stretto-proxy} (a JDK AOT cache, made by the
 * launchers with {@code -XX:AOTCacheOutput}): the sessions its arguments give, one after the
 * other in one JVM, each between stdin's lines (read once, and given to each session) and an
 * output that is dropped. A cache holds every class its training loaded, and the JVM loads
 * and relocates all of it when it starts, so one cache is trained for passive sessions
 * (unrecorded and recorded: both ways of forwarding) and another for active mode: a passive
 * session then pays for none of active mode's classes.
 *
 * <p>Usage: {@code AotTraining OPTIONS... -- SERVER [+++ OPTIONS... -- SERVER]...}, the options
 * those of {@code stretto-proxy}. Exit status 0 when every session ran, else the first
 * failing session's status.
 */
public final class AotTraining {

    /** What separates the sessions in the arguments. */
    static final String NEXT = "+++";

    private AotTraining() {
    }

    /**
     * Runs the sessions and exits with 0, or with the first failing session's status.
     *
     * @param args the sessions' arguments, separated by {@value #NEXT}
     * @throws IOException when stdin cannot be read
     */
    public static void main(String[] args) throws IOException {
        byte[] lines = System.in.readAllBytes();
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        int status = 0;
        for (List<String> session : sessions(args)) {
            // As the command runs it, signal hook and all, so that what it loads is in the cache.
            int s = ProxyMain.command(session.toArray(String[]::new), SignalShutdown.install(Thread.currentThread()),
                    new ByteArrayInputStream(lines), OutputStream.nullOutputStream(), nowhere);
            if (status == 0) {
                status = s;
            }
        }
        System.exit(status);
    }

    /** The arguments of each session, as {@value #NEXT} separates them. */
    static List<List<String>> sessions(String[] args) {
        List<List<String>> sessions = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String a : Arrays.asList(args)) {
            if (a.equals(NEXT)) {
                sessions.add(current);
                current = new ArrayList<>();
            } else {
                current.add(a);
            }
        }
        sessions.add(current);
        return sessions;
    }
}
