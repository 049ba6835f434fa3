package dev.stretto.cli.learn;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@code stretto learn} was asked to do (the options of stretto-learn section 1 that
 * apply to session logs without a System-One model).
 *
 * @param sessions  the directory of session logs
 * @param domain    the flow's domain (a manifest file's own domain wins)
 * @param out       where to write the flow
 * @param manifest  a tool manifest to use instead of the logs' tool lists, or null
 * @param rewards   a JSON object of rewards by session id, or null (every session gets 1.0)
 * @param constants whether to learn constant arguments
 * @param halfLife  the half-life of a session's weight in the habit, in sessions, or null
 */
public record LearnOptions(Path sessions, String domain, Path out, Path manifest, Path rewards, boolean constants,
                           Double halfLife) {

    public LearnOptions {
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(out, "out");
        if (halfLife != null && !(halfLife > 0.0)) {
            throw new IllegalArgumentException("--half-life must be > 0");
        }
    }
}
