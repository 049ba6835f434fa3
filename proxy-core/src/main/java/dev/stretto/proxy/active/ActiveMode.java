package dev.stretto.proxy.active;

import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.FlowSettings;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.Policy;
import dev.stretto.proxy.PolicyException;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.Exploration;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.ServedFlow;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.proxy.policy.PolicyReader;
import java.nio.file.Path;

/**
 * What the proxy does in active mode, beyond forwarding: check the agent's calls against a
 * domain's policy guards ({@code --guards}), add the {@code stretto_commit} tool ({@code
 * --commit}), read the conversation the host appends to a file ({@code --context FILE}), serve
 * a flow behind the agent's calls ({@code --flow FILE}), ask a model whether the customer agreed
 * to each write ({@code --confirm-judge}). A session with an {@code ActiveMode}
 * runs its lines through one actor; a session without one forwards them untouched and parses
 * nothing. Build it with {@link #builder()}.
 *
 * <p>It is the {@link ActiveSettings} of the project's own commands: given to {@code
 * ProxyConfig.Builder.active}, it is the session's active mode as it is; other settings become
 * one with {@link #of(ActiveSettings)}.
 *
 * @param policy  the guards every call is checked against, or null for none
 * @param commit  whether {@code tools/list} answers list {@code stretto_commit}, and calls of it
 *                are run by the proxy
 * @param context the conversation file ({@code --context}), or null
 * @param flow    the flow served after the agent's calls, or null
 * @param oracle  who answers the System-One questions ({@code --oracle}): needed by a flow
 *                that decides with its arbiter and by the judge, else null. The caller opens it
 *                and closes it once the session has ended.
 * @param judge   the confirmation judge, or null; it needs the guards, the conversation and
 *                the oracle
 * @param toolPolicy the policy for any server ({@code --policy FILE}), or null
 */
public record ActiveMode(Guards policy, boolean commit, Path context, ServedFlow flow, Oracle oracle,
                         ConfirmJudge judge, ToolPolicy toolPolicy) implements ActiveSettings {

    /**
     * @throws IllegalArgumentException when nothing is asked for (that is passive mode), a
     *                                  flow decides with its arbiter and no oracle is given, or
     *                                  a judge lacks the guards, the context file or the oracle
     */
    public ActiveMode {
        if (policy == null && !commit && context == null && flow == null && toolPolicy == null) {
            throw new IllegalArgumentException("active mode needs guards, the commit tool, a context file, a flow or a"
                    + " policy");
        }
        if (flow != null && flow.decider() == DeciderKind.ARBITER && oracle == null) {
            throw new IllegalArgumentException("the flow " + flow.source() + " decides with its arbiter, which asks the"
                    + " System-One model: give an oracle");
        }
        if (judge != null && (policy == null || context == null || oracle == null)) {
            throw new IllegalArgumentException("the confirmation judge needs the guards, the context file and an"
                    + " oracle");
        }
    }

    /** Guards, the commit tool and the conversation, without a flow or a judge. */
    public ActiveMode(Guards policy, boolean commit, Path context) {
        this(policy, commit, context, null, null, null, null);
    }

    /** Guards, the commit tool, the conversation, a flow, the oracle and the judge, without a policy. */
    public ActiveMode(Guards policy, boolean commit, Path context, ServedFlow flow, Oracle oracle, ConfirmJudge judge) {
        this(policy, commit, context, flow, oracle, judge, null);
    }

    /**
     * The active mode of {@code settings}: themselves when they are an {@code ActiveMode}, else
     * their switches, checked as {@link ActiveSettings.Builder} checks them, with the flow, the
     * judge and the oracle of {@link ActiveSettings.Switches} made into the session's own.
     *
     * @throws IllegalArgumentException when nothing is switched on, the guards' domain has none,
     *                                  an arbiter or a judge lacks the oracle, a judge lacks the
     *                                  guards or the conversation, or the oracle was not opened
     *                                  by {@code OracleSettings.open()}
     */
    public static ActiveMode of(ActiveSettings settings) {
        if (settings instanceof ActiveMode mode) {
            return mode;
        }
        ActiveSettings.Switches switches = settings instanceof ActiveSettings.Switches s ? s
                : new ActiveSettings.Switches(settings.guards(), settings.commit(), settings.context());
        OracleHandle oracle = switches.oracle() == null ? null : OracleHandle.of(switches.oracle());
        return new ActiveMode(switches.guards() == null ? null : Guards.forDomain(switches.guards()).orElseThrow(),
                switches.commit(), switches.context(), served(switches.flow()), oracle == null ? null : oracle.oracle(),
                judge(switches.judge(), oracle), toolPolicy(switches.policy()));
    }

    /** The policy as a session applies it; checked when it was made. */
    private static ToolPolicy toolPolicy(Policy policy) {
        if (policy == null) {
            return null;
        }
        try {
            return new ToolPolicy(PolicyReader.of(policy.document(), policy.source()), null);
        } catch (PolicyException e) {
            throw new IllegalStateException("checked when the policy was made: " + e.getMessage(), e);
        }
    }

    /** The flow as the session serves it; checked when its settings were made. */
    private static ServedFlow served(FlowSettings settings) {
        if (settings == null) {
            return null;
        }
        Exploration exploration = settings.exploreEpsilon() == null ? null
                : new Exploration(settings.exploreEpsilon(), settings.exploreSeed());
        FlowOptions options = new FlowOptions(settings.threshold(), settings.decider(), settings.perCall(),
                settings.perSession(), settings.questions(), settings.tools(), settings.shadow(), exploration,
                settings.taskId());
        try {
            return ServedFlow.of(dev.stretto.proxy.flow.model.Flow.of(settings.flow()), settings.source(), options,
                    settings.log());
        } catch (ProxyStartException e) {
            throw new IllegalStateException("checked when the flow's settings were made: " + e.getMessage(), e);
        }
    }

    /** The judge as the session runs it, naming the oracle's model in its questions. */
    private static ConfirmJudge judge(JudgeSettings settings, OracleHandle oracle) {
        if (settings == null) {
            return null;
        }
        return new ConfirmJudge(settings, oracle.model(), settings.log());
    }

    /** The name of the guards' domain, or null for none. */
    @Override
    public String guards() {
        return policy == null ? null : policy.domain().name();
    }

    /** This configuration with the conversation read from {@code file} instead. */
    public ActiveMode withContext(Path file) {
        return new ActiveMode(policy, commit, file, flow, oracle, judge, toolPolicy);
    }

    /** This configuration serving {@code served} instead. */
    public ActiveMode withFlow(ServedFlow served) {
        return new ActiveMode(policy, commit, context, served, oracle, judge, toolPolicy);
    }

    /** This configuration with {@code newJudge} (null for none) instead. */
    public ActiveMode withJudge(ConfirmJudge newJudge) {
        return new ActiveMode(policy, commit, context, flow, oracle, newJudge, toolPolicy);
    }

    /** This configuration applying {@code newPolicy} (null for none) instead. */
    public ActiveMode withToolPolicy(ToolPolicy newPolicy) {
        return new ActiveMode(policy, commit, context, flow, oracle, judge, newPolicy);
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
        private ServedFlow flow;
        private Oracle oracle;
        private ConfirmJudge judge;
        private ToolPolicy toolPolicy;

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

        /** Serves {@code served} after the agent's calls ({@code --flow FILE}). */
        public Builder flow(ServedFlow served) {
            this.flow = served;
            return this;
        }

        /** Asks {@code oracle} the System-One questions ({@code --oracle}); the caller closes it. */
        public Builder oracle(Oracle oracle) {
            this.oracle = oracle;
            return this;
        }

        /**
         * Judges the writes the guards check for a confirmation ({@code --confirm-judge}); needs
         * {@link #guards}, {@link #context} and {@link #oracle}.
         */
        public Builder judge(ConfirmJudge judge) {
            this.judge = judge;
            return this;
        }

        /** Applies {@code policy} to every call, listing and request of the server's ({@code --policy FILE}). */
        public Builder toolPolicy(ToolPolicy policy) {
            this.toolPolicy = policy;
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalArgumentException when nothing was switched on, an arbiter has no
         *                                  oracle, or a judge lacks guards, context or oracle
         */
        public ActiveMode build() {
            return new ActiveMode(guards, commit, context, flow, oracle, judge, toolPolicy);
        }
    }
}
