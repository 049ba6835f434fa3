package dev.stretto.proxy;

import dev.stretto.proxy.active.ActiveMode;
import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Active mode for a session, as a program configures it ({@link ProxyConfig.Builder#active(ActiveSettings)}):
 * the same switches as {@code stretto-proxy --guards --commit --context FILE}. With any of them
 * the session runs its lines through the active-mode actor, which checks the agent's calls
 * against a domain's policy guards, adds the {@code stretto_commit} tool and reads the
 * conversation from a file; every line it does not act on is still forwarded byte for byte.
 * Without settings (the default) a session is passive: it forwards and records, and parses nothing.
 *
 * <pre>{@code
 * ProxyConfig config = ProxyConfig.builder(server)
 *         .domain("retail")                                  // the log header's domain
 *         .active(ActiveSettings.builder()
 *                 .guards("retail")                          // retail's policy rules
 *                 .commit(true)                              // stretto_commit
 *                 .context(Path.of("/var/run/agent/chat.jsonl"))
 *                 .build())
 *         .build();
 * }</pre>
 *
 * <p>Refusals, the commit's requests and answers and the conversation's lines are recorded
 * as {@code proxy} and {@code context} entries, and reach a {@link SessionListener} and the
 * {@link RecordingSink}s like every other line. The rules and the exact texts are described in
 * the project's {@code docs/active-mode.md}.
 *
 * <p>A served flow ({@code --flow}), the System-One oracle ({@code --oracle}) and the
 * confirmation judge ({@code --confirm-judge}) are not among these settings: they are
 * configured with types of the module's internal packages, which a program on the class path
 * can use (see the README's library section) and one on the module path cannot.
 *
 * @param guards  the domain whose policy guards check each of the agent's {@code tools/call}s
 *                before the server sees it ({@link #guardedDomains()}: {@code retail} or
 *                {@code airline}), or null for none
 * @param commit  whether {@code tools/list} answers list {@code stretto_commit}, which makes
 *                several calls in order, each checked first
 * @param context the file the host appends the conversation to, one JSON line per message
 *                ({@code {"role":"user"|"assistant","content":"..."}}); a leading {@code ~} is
 *                the home directory of {@link ProxyConfig#host()}; null for none
 */
public record ActiveSettings(String guards, boolean commit, Path context) {

    /**
     * @throws IllegalArgumentException when nothing is switched on (that is passive mode: give
     *                                  no settings), or {@code guards} names a domain without guards
     */
    public ActiveSettings {
        if (guards == null && !commit && context == null) {
            throw new IllegalArgumentException("active mode needs guards, the commit tool or a context file;"
                    + " without any of them a session is passive");
        }
        if (guards != null && Guards.forDomain(guards).isEmpty()) {
            throw new IllegalArgumentException("no guards for " + guards + " (domains with guards: "
                    + Guards.domainNames() + ")");
        }
    }

    /** The domains that have policy guards: {@code retail} and {@code airline}. */
    public static List<String> guardedDomains() {
        return Guards.DOMAINS.stream().map(d -> d.name()).toList();
    }

    /** A builder with nothing switched on yet. */
    public static Builder builder() {
        return new Builder();
    }

    /** The active mode the session runs with. */
    ActiveMode mode() {
        return new ActiveMode(guards == null ? null : Guards.forDomain(guards).orElseThrow(), commit, context);
    }

    /** Builds {@link ActiveSettings}. Not thread-safe. */
    public static final class Builder {
        private String guards;
        private boolean commit;
        private Path context;

        private Builder() {
        }

        /** Checks every call against the policy guards of {@code domain} ({@code --guards --domain NAME}). */
        public Builder guards(String domain) {
            this.guards = Objects.requireNonNull(domain, "domain");
            return this;
        }

        /** Adds {@code stretto_commit} ({@code --commit}). */
        public Builder commit(boolean commit) {
            this.commit = commit;
            return this;
        }

        /** Reads the conversation from {@code file} ({@code --context FILE}). */
        public Builder context(Path file) {
            this.context = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException when nothing was switched on, or the guards' domain has none
         */
        public ActiveSettings build() {
            return new ActiveSettings(guards, commit, context);
        }
    }
}
