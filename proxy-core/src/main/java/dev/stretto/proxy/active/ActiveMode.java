package dev.stretto.proxy.active;

import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;

/**
 * What the proxy does in active mode, beyond forwarding: check the agent's calls against a
 * domain's policy guards ({@code --guards}), add the {@code stretto_commit} tool ({@code
 * --commit}), read the conversation the host appends to a file ({@code --context FILE}). A
 * session with an {@code ActiveMode} runs its lines through one actor; a session without one
 * forwards them untouched and parses nothing. Build it with {@link #builder()}.
 *
 * @param guards  the guards every call is checked against, or null for none
 * @param commit  whether {@code tools/list} answers list {@code stretto_commit}, and calls of it
 *                are run by the proxy
 * @param context the conversation file ({@code --context}), or null
 */
public record ActiveMode(Guards guards, boolean commit, Path context) {

    /** @throws IllegalArgumentException when nothing is asked for: that is passive mode */
    public ActiveMode {
        if (guards == null && !commit && context == null) {
            throw new IllegalArgumentException("active mode needs guards, the commit tool or a context file");
        }
    }

    /** This configuration with the conversation read from {@code file} instead. */
    public ActiveMode withContext(Path file) {
        return new ActiveMode(guards, commit, file);
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
         * The configuration.
         *
         * @throws IllegalArgumentException when nothing was switched on
         */
        public ActiveMode build() {
            return new ActiveMode(guards, commit, context);
        }
    }
}
