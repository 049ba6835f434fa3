package dev.stretto.proxy;

import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Judgement;
import dev.stretto.proxy.guard.Replay;
import dev.stretto.proxy.guard.Verdict;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A recorded session's writes replayed through a domain's policy guards ({@code stretto
 * guards}): each write against the session as it stood just before it, as a session with
 * {@code ActiveSettings.Builder.guards} checks it live; every rule's verdict, and whether the
 * write would be refused. The rules and their texts are described in the project's {@code
 * docs/active-mode.md}.
 *
 * @param domain the domain whose guards were used
 * @param rules  the domain's rules, in its order
 * @param writes each write the guards check, in log order
 */
public record GuardReplay(String domain, List<Rule> rules, List<Write> writes) {

    /**
     * Copies the lists.
     *
     * @throws NullPointerException when a part is null
     */
    public GuardReplay {
        Objects.requireNonNull(domain, "domain");
        rules = List.copyOf(rules);
        writes = List.copyOf(writes);
    }

    /**
     * A rule of the domain.
     *
     * @param id       such as {@code retail.authenticated}
     * @param enforced whether it refuses a call it fails (the {@code .confirmed} rules are only
     *                 logged)
     */
    public record Rule(String id, boolean enforced) {
    }

    /**
     * One write and its verdicts.
     *
     * @param tMs     when it was logged, in milliseconds after the session started
     * @param from    who made it: the agent ({@link Source#CLIENT}), or the proxy (a commit's call)
     * @param call    the call
     * @param refused whether the guards refuse it
     * @param checks  each rule's verdict on it, in the domain's order
     */
    public record Write(long tMs, Source from, ToolCall call, boolean refused, List<Check> checks) {

        /** Copies the checks. */
        public Write {
            checks = List.copyOf(checks);
        }
    }

    /**
     * One rule's verdict on a write.
     *
     * @param rule    the rule
     * @param outcome pass, fail or unknown
     * @param reason  why it failed or could not tell, or null for a pass
     */
    public record Check(Rule rule, Outcome outcome, String reason) {

        /**
         * The verdict as the proxy logs it.
         *
         * @return {@code {"verdict":"pass"}}, or {@code {"verdict":"fail"|"unknown","reason":...}}
         */
        public String toJson() {
            Verdict verdict = switch (outcome) {
                case PASS -> Verdict.pass();
                case FAIL -> Verdict.fail(reason);
                case UNKNOWN -> Verdict.unknown(reason);
            };
            return verdict.toJson();
        }
    }

    /** A rule's verdict. */
    public enum Outcome {
        /** The rule holds. */
        PASS,
        /** The rule does not hold; an enforced rule refuses the call. */
        FAIL,
        /** The session does not tell; nothing is refused for it. */
        UNKNOWN;

        /**
         * The verdict's word, as {@code stretto guards} prints it.
         *
         * @return {@code pass}, {@code fail} or {@code unknown}
         */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Replays a session's writes through a domain's guards.
     *
     * @param log    the session
     * @param domain the domain: {@code retail} or {@code airline} (see {@link
     *               ActiveSettings#guardedDomains()})
     * @return the replay
     * @throws IllegalArgumentException when the domain has no guards
     */
    public static GuardReplay of(SessionLog log, String domain) {
        Optional<Guards> found = Guards.forDomain(Objects.requireNonNull(domain, "domain"));
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no guards for " + domain + " (domains with guards: "
                    + Guards.domainNames() + ")");
        }
        Guards guards = found.get();
        List<Rule> rules = new ArrayList<>();
        guards.domain().rules().forEach(r -> rules.add(new Rule(r.id(), r.enforced())));
        List<Write> writes = new ArrayList<>();
        for (Replay.Write w : Replay.of(log, guards)) {
            List<Check> checks = new ArrayList<>();
            for (Judgement.Checked c : w.judgement().verdicts()) {
                Outcome outcome = switch (c.verdict()) {
                    case Verdict.Pass p -> Outcome.PASS;
                    case Verdict.Fail f -> Outcome.FAIL;
                    case Verdict.Unknown u -> Outcome.UNKNOWN;
                };
                checks.add(new Check(new Rule(c.rule().id(), c.rule().enforced()), outcome, c.verdict().reason()));
            }
            writes.add(new Write(w.tMs(), w.from(), w.call(), w.judgement().refused(), checks));
        }
        return new GuardReplay(guards.domain().name(), rules, writes);
    }
}
