package dev.stretto.proxy;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Active mode for a session, as a program configures it ({@link ProxyConfig.Builder#active}):
 * the same switches as {@code stretto-proxy --guards --commit --context FILE --flow FILE
 * --confirm-judge MODE --policy FILE}. With any of them the session runs its lines through the
 * active-mode actor, which checks the agent's calls against a domain's policy guards, adds the
 * {@code stretto_commit} tool, reads the conversation from a file, serves a learned flow behind
 * the agent's calls, asks a model whether the customer agreed to each write and applies a
 * {@link Policy} for any server; every line it does
 * not act on is still forwarded byte for byte. Without settings (the default) a session is
 * passive: it forwards and records, and parses nothing.
 *
 * <pre>{@code
 * ProxyConfig config = ProxyConfig.builder(server)
 *         .domain("retail")                                  // the log header's domain
 *         .active(ActiveSettings.builder()
 *                 .guards("retail")                          // retail's policy rules
 *                 .commit(true)                              // stretto_commit
 *                 .context(Path.of("/var/run/agent/chat.jsonl"))
 *                 .flow(FlowSettings.builder(flow, "retail.flow.json").build())
 *                 .judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE))
 *                 .oracle(oracle)                            // for the judge (and an arbiter)
 *                 .build())
 *         .build();
 * }</pre>
 *
 * <p>Refusals, the commit's requests and answers, the flow's lookups and the conversation's
 * lines are recorded as {@code proxy} and {@code context} entries, and reach a {@link
 * SessionListener} and the {@link RecordingSink}s like every other line. The rules and the
 * exact texts are described in the project's {@code docs/active-mode.md} and {@code
 * docs/flows.md}.
 *
 * <p>Make the settings with {@link #builder()} (or as a {@link Switches}). A program may also
 * implement this interface itself for the three switches it declares (guards, the commit tool,
 * the conversation); {@link ProxyConfig} checks such settings as the builder does, when it is
 * made. A flow, the judge, the oracle and a policy come with the builder's {@link Switches}. The {@link
 * Oracle} is the caller's: it opens it, may give it to many sessions, and closes it once they
 * have ended.
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
     * The domains that have policy guards, as messages name them.
     *
     * @return {@code retail or airline}
     */
    static String guardedDomainNames() {
        return Guards.domainNames();
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
     * @param flow    the flow served, or null
     * @param judge   the confirmation judge, or null
     * @param oracle  who answers the System-One questions, or null
     * @param policy  the policy for any server, or null
     */
    record Switches(String guards, boolean commit, Path context, FlowSettings flow, JudgeSettings judge,
                    Oracle oracle, Policy policy) implements ActiveSettings {

        /**
         * Checks the switches.
         *
         * @throws IllegalArgumentException when nothing is switched on (that is passive mode:
         *                                  give no settings), {@code guards} names a domain
         *                                  without guards, a flow decides with its arbiter and
         *                                  no oracle is given, or a judge lacks the guards, the
         *                                  conversation or an oracle
         */
        public Switches {
            if (guards == null && !commit && context == null && flow == null && policy == null) {
                throw new IllegalArgumentException("active mode needs guards, the commit tool, a context file, a"
                        + " flow or a policy; without any of them a session is passive");
            }
            if (guards != null && Guards.forDomain(guards).isEmpty()) {
                throw new IllegalArgumentException("no guards for " + guards + " (domains with guards: "
                        + Guards.domainNames() + ")");
            }
            if (flow != null && flow.decider() == DeciderKind.ARBITER && oracle == null) {
                throw new IllegalArgumentException("the flow " + flow.source() + " decides with its arbiter, which"
                        + " asks the System-One model: give an oracle");
            }
            if (judge != null && (guards == null || context == null || oracle == null)) {
                throw new IllegalArgumentException("the confirmation judge needs the guards, the context file and an"
                        + " oracle");
            }
        }

        /**
         * Guards, the commit tool and the conversation, without a flow, a judge or an oracle.
         *
         * @param guards  the guards' domain, or null
         * @param commit  whether the commit tool is added
         * @param context the conversation file, or null
         */
        public Switches(String guards, boolean commit, Path context) {
            this(guards, commit, context, null, null, null, null);
        }

        /**
         * Guards, the commit tool, the conversation, a flow, a judge and an oracle, without a
         * policy.
         *
         * @param guards  the guards' domain, or null
         * @param commit  whether the commit tool is added
         * @param context the conversation file, or null
         * @param flow    the flow served, or null
         * @param judge   the confirmation judge, or null
         * @param oracle  who answers the System-One questions, or null
         */
        public Switches(String guards, boolean commit, Path context, FlowSettings flow, JudgeSettings judge,
                        Oracle oracle) {
            this(guards, commit, context, flow, judge, oracle, null);
        }
    }

    /** Builds {@link ActiveSettings}. Not thread-safe. */
    final class Builder {
        private String guards;
        private boolean commit;
        private Path context;
        private FlowSettings flow;
        private JudgeSettings judge;
        private Oracle oracle;
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
         * Serves a flow after the agent's calls ({@code --flow FILE}).
         *
         * @param served the flow and how it is served
         * @return this builder
         */
        public Builder flow(FlowSettings served) {
            this.flow = Objects.requireNonNull(served, "served");
            return this;
        }

        /**
         * Judges the writes the guards check for a confirmation ({@code --confirm-judge}); needs
         * {@link #guards}, {@link #context} and {@link #oracle}.
         *
         * @param settings how it judges
         * @return this builder
         */
        public Builder judge(JudgeSettings settings) {
            this.judge = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * Asks {@code oracle} the System-One questions of a flow's arbiter and of the judge
         * ({@code --oracle}); the caller closes it once the session has ended.
         *
         * @param oracle an oracle opened with {@link OracleSettings#open()}
         * @return this builder
         */
        public Builder oracle(Oracle oracle) {
            this.oracle = Objects.requireNonNull(oracle, "oracle");
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
         * @throws IllegalArgumentException as {@link Switches} checks them
         */
        public ActiveSettings build() {
            return new Switches(guards, commit, context, flow, judge, oracle, policy);
        }
    }
}
