package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * A call a policy holds until a person approves or denies it ({@code ask}), as {@link
 * Approvals} finds it: in a file beside its session's log.
 *
 * @param id        the id to approve or deny it by: eight lower-case letters and digits
 * @param session   the session's id
 * @param tool      the tool called
 * @param arguments its arguments
 * @param rule      the id of the rule or budget that asks
 * @param reason    why it asks, or null
 * @param asked     when the call came
 * @param deadline  when it is denied if no one has answered
 * @param file      the file that holds it
 */
public record PendingApproval(String id, String session, String tool, JsonNode arguments, String rule, String reason,
                              Instant asked, Instant deadline, Path file) {

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when a part other than {@code reason} is null
     */
    public PendingApproval {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(asked, "asked");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(file, "file");
    }
}
