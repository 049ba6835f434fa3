package dev.stretto.proxy;

import dev.stretto.proxy.policy.ApprovalFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The calls a policy holds for a person ({@code ask}), found and decided as {@code stretto
 * pending}, {@code stretto approve} and {@code stretto deny} do: through files beside each
 * session's log, {@code <session>.approvals/}; no port is opened. A session without a log file
 * keeps them under {@code ~/.stretto/approvals/}. Only the user who runs the proxy can read or
 * write them (the directory is 0700).
 *
 * <pre>{@code
 * for (PendingApproval call : Approvals.pending(Path.of("/var/log/agent"))) {
 *     if (call.tool().equals("write_file") && reviewed(call.arguments())) {
 *         Approvals.approve(Path.of("/var/log/agent"), call.id());
 *     }
 * }
 * }</pre>
 */
public final class Approvals {

    private Approvals() {
    }

    /**
     * Where the commands look when given no directory: {@code ~/.stretto}, under which the
     * logs usually are and the approvals of unrecorded sessions always are.
     *
     * @param host the surroundings whose home directory counts
     * @return the directory
     * @throws IllegalArgumentException when the home directory is not known
     */
    public static Path defaultDirectory(HostEnvironment host) {
        if (host.home() == null) {
            throw new IllegalArgumentException("the home directory is not known (HOME is not set): give the directory");
        }
        return host.home().resolve(".stretto");
    }

    /**
     * Where the calls of the session logged at {@code sessionLog} wait: {@code
     * <session>.approvals} beside it, which {@link #pending} also takes.
     *
     * @param sessionLog a session log ({@code <session>.jsonl})
     * @return the directory, which exists only while a call waits
     */
    public static Path besideSessionLog(Path sessionLog) {
        return ApprovalFiles.besideSessionLog(sessionLog);
    }

    /**
     * Every call that waits for approval in the sessions under {@code dir} (at any depth up to
     * eight directories down), oldest first. A call whose deadline has passed, or whose proxy
     * has gone, does not wait.
     *
     * @param dir a session log directory ({@code --record DIR}), or one above such directories
     * @return the calls; none when nothing waits
     * @throws IOException when {@code dir} is not a directory that can be read
     */
    public static List<PendingApproval> pending(Path dir) throws IOException {
        return ApprovalFiles.pending(Objects.requireNonNull(dir, "dir"), Instant.now());
    }

    /**
     * The call that waits with the id {@code id} under {@code dir}.
     *
     * @param dir as for {@link #pending}
     * @param id  the call's id
     * @return the call, or empty when none waits with that id
     * @throws IOException when {@code dir} is not a directory that can be read
     */
    public static Optional<PendingApproval> find(Path dir, String id) throws IOException {
        Objects.requireNonNull(id, "id");
        return pending(dir).stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /**
     * Approves the call {@code id}: its proxy sends it to the server at its next look (within a
     * quarter of a second).
     *
     * @param dir as for {@link #pending}
     * @param id  the call's id
     * @return the call approved, or empty when none waits with that id
     * @throws IOException when the decision cannot be written
     */
    public static Optional<PendingApproval> approve(Path dir, String id) throws IOException {
        return decide(dir, id, true, null);
    }

    /**
     * Denies the call {@code id}: its proxy answers the agent with the refusal, {@code reason}
     * in it.
     *
     * @param dir    as for {@link #pending}
     * @param id     the call's id
     * @param reason why, as the agent is told; null for none
     * @return the call denied, or empty when none waits with that id
     * @throws IOException when the decision cannot be written
     */
    public static Optional<PendingApproval> deny(Path dir, String id, String reason) throws IOException {
        if (reason != null && (reason.isBlank() || reason.chars().anyMatch(c -> c == '\n' || c == '\r'))) {
            throw new IllegalArgumentException("a reason is one line of text");
        }
        return decide(dir, id, false, reason == null ? null : reason.strip());
    }

    private static Optional<PendingApproval> decide(Path dir, String id, boolean approve, String reason)
            throws IOException {
        Optional<PendingApproval> call = find(dir, id);
        if (call.isEmpty()) {
            return call;
        }
        try {
            ApprovalFiles.decide(call.get(), approve, reason, Instant.now());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return call;
    }

    /**
     * Waits until the proxy has taken the decision on {@code call} (it removes the call's file).
     *
     * @param call    a call approved or denied
     * @param timeout how long to wait at most
     * @return whether the proxy took it within {@code timeout}
     * @throws InterruptedException when interrupted while waiting
     */
    public static boolean awaitTaken(PendingApproval call, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!ApprovalFiles.taken(call)) {
            if (System.nanoTime() - end >= 0) {
                return false;
            }
            // The proxy looks every quarter of a second; the file gives no event to wait on.
            Thread.sleep(50);
        }
        return true;
    }
}
