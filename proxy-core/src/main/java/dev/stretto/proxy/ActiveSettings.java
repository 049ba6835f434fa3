package dev.stretto.proxy;

import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Active mode for a session, as a program configures it ({@link ProxyConfig.Builder#active}):
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
 * <p>Make the settings with {@link #builder()} (or as a {@link Switches}). A session reads nothing
 * of them but these three accessors, so a program may also implement this interface itself; {@link ProxyConfig} checks
 * such settings as the builder does, when it is made. A served flow ({@code --flow}), the
 * System-One oracle ({@code --oracle}) and the confirmation judge ({@code --confirm-judge}) are
 * not among these settings: the project's own command passes settings of its own that add them,
 * made of types of the module's internal packages, which a program on the class path can use
 * too (see the project's {@code docs/library.md}) and one on the module path cannot.
 */
public interface ActiveSettings {

    /**
     * The domain whose policy guards check each of the agent's {@code tools/call}s before the
     * server sees it.
     *
     * @return {@code retail} or {@code airline} (see {@link #guardedDomains()}), or null for no
     *         guards
     */
    String guards();

    /**
     * Whether {@code tools/list} answers list {@code stretto_commit}, which makes several calls
     * in order, each checked first.
     *
     * @return true to add the commit tool
     */
    boolean commit();

    /**
     * The file the host appends the conversation to, one JSON line per message ({@code
     * {"role":"user"|"assistant","content":"..."}}); a leading {@code ~} is the home directory
     * of {@link ProxyConfig#host()}.
     *
     * @return the conversation file, or null for none
     */
    Path context();

    /**
     * The domains that have policy guards.
     *
     * @return {@code retail} and {@code airline}
     */
    static List<String> guardedDomains() {
        return Guards.DOMAINS.stream().map(d -> d.name()).toList();
    }

    /**
     * A builder with nothing switched on yet.
     *
     * @return the builder
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * The settings {@link Builder} makes: the switches, checked when made.
     *
     * @param guards  the guards' domain, or null
     * @param commit  whether the commit tool is added
     * @param context the conversation file, or null
     * @param policy  the policy for any server, or null
     */
    record Switches(String guards, boolean commit, Path context, Policy policy) implements ActiveSettings {

        /**
         * Checks the switches.
         *
         * @throws IllegalArgumentException when nothing is switched on (that is passive mode:
         *                                  give no settings), or {@code guards} names a domain
         *                                  without guards
         */
        public Switches {
            if (guards == null && !commit && context == null && policy == null) {
                throw new IllegalArgumentException("active mode needs guards, the commit tool, a context file or a"
                        + " policy; without any of them a session is passive");
            }
            if (guards != null && Guards.forDomain(guards).isEmpty()) {
                throw new IllegalArgumentException("no guards for " + guards + " (domains with guards: "
                        + Guards.domainNames() + ")");
            }
        }

        /**
         * Guards, the commit tool and the conversation, without a policy.
         *
         * @param guards  the guards' domain, or null
         * @param commit  whether the commit tool is added
         * @param context the conversation file, or null
         */
        public Switches(String guards, boolean commit, Path context) {
            this(guards, commit, context, null);
        }
    }

    /** Builds {@link ActiveSettings}. Not thread-safe. */
    final class Builder {
        private String guards;
        private boolean commit;
        private Path context;
        private Policy policy;

        private Builder() {
        }

        /**
         * Checks every call against the policy guards of {@code domain} ({@code --guards --domain NAME}).
         *
         * @param domain {@code retail} or {@code airline}
         * @return this builder
         */
        public Builder guards(String domain) {
            this.guards = Objects.requireNonNull(domain, "domain");
            return this;
        }

        /**
         * Adds {@code stretto_commit} ({@code --commit}).
         *
         * @param commit true to add it
         * @return this builder
         */
        public Builder commit(boolean commit) {
            this.commit = commit;
            return this;
        }

        /**
         * Reads the conversation from {@code file} ({@code --context FILE}).
         *
         * @param file the conversation file
         * @return this builder
         */
        public Builder context(Path file) {
            this.context = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * Applies {@code policy} to every tool call, {@code tools/list} answer and request of the
         * server's ({@code --policy FILE}): tools allowed, logged, held for a person's approval,
         * denied or hidden, budgets of calls, tools pinned as first listed.
         *
         * @param policy the policy; it may serve any number of sessions
         * @return this builder
         */
        public Builder policy(Policy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The settings.
         *
         * @return settings with what was switched on
         * @throws IllegalArgumentException when nothing was switched on, or the guards' domain has none
         */
        public ActiveSettings build() {
            return new Switches(guards, commit, context, policy);
        }
    }
}
