package dev.stretto.proxy.active;

import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;

/**
 * What the proxy does in active mode, beyond forwarding: check the agent's calls against a
 * domain's policy guards ({@code --guards}), add the {@code stretto_commit} tool ({@code
 * --commit}), read the conversation the host appends to a file ({@code --context FILE}), ask
 * a model whether the customer agreed to each write ({@code --confirm-judge}). A
 * session with an {@code ActiveMode} runs its lines through one actor; a session without one
 * forwards them untouched and parses nothing. Build it with {@link #builder()}.
 *
 * @param guards  the guards every call is checked against, or null for none
 * @param commit  whether {@code tools/list} answers list {@code stretto_commit}, and calls of it
 *                are run by the proxy
 * @param context the conversation file ({@code --context}), or null
 * @param judge   the confirmation judge, or null; it needs the guards and the conversation
 */
public record ActiveMode(Guards guards, boolean commit, Path context, ConfirmJudge judge) {

    /**
     * @throws IllegalArgumentException when nothing is asked for (that is passive mode), or a
     *                                  judge without guards or a context file
     */
    public ActiveMode {
        if (guards == null && !commit && context == null) {
            throw new IllegalArgumentException("active mode needs guards, the commit tool or a context file");
        }
        if (judge != null && (guards == null || context == null)) {
            throw new IllegalArgumentException("the confirmation judge needs the guards and the context file");
        }
    }

    /** This configuration with the conversation read from {@code file} instead. */
    public ActiveMode withContext(Path file) {
        return new ActiveMode(guards, commit, file, judge);
    }

    /** This configuration with {@code newJudge} (null for none) instead. */
    public ActiveMode withJudge(ConfirmJudge newJudge) {
        return new ActiveMode(guards, commit, context, newJudge);
    }

    /** A builder with nothing switched on yet. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link ActiveMode}. Not thread-safe. */
    public static final class Builder {
        private Guards guards;
        private boolean commit;
        private Path context;
        private ConfirmJudge judge;

        private Builder() {
        }

        /** Checks every call against {@code guards} ({@code --guards --domain NAME}). */
        public Builder guards(Guards guards) {
            this.guards = guards;
            return this;
        }

        /** Adds {@code stretto_commit} ({@code --commit}). */
        public Builder commit(boolean commit) {
            this.commit = commit;
            return this;
        }

        /** Reads the conversation from {@code file} ({@code --context FILE}). */
        public Builder context(Path file) {
            this.context = file;
            return this;
        }

        /**
         * Judges the writes the guards check for a confirmation ({@code --confirm-judge}); needs
         * {@link #guards} and {@link #context}.
         */
        public Builder judge(ConfirmJudge judge) {
            this.judge = judge;
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalArgumentException when nothing was switched on, or a judge was asked
         *                                  for without guards or a context file
         */
        public ActiveMode build() {
            return new ActiveMode(guards, commit, context, judge);
        }
    }
}
