package dev.stretto.proxy.active;

import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Judgement;
import dev.stretto.proxy.guard.Verdict;
import dev.stretto.trace.episode.ToolCall;
import java.util.function.Consumer;
import dev.stretto.proxy.logging.Logger;

/**
 * The policy guards as a {@link CallCheck}: decided at once, from the session's facts. A
 * failure of an enforced rule refuses the call; the other verdicts (a logged-only rule's
 * failure such as {@code retail.confirmed}, and every unknown) are written to stderr at debug
 * level, since they refuse nothing.
 */
final class GuardCheck implements CallCheck {
    private final Guards guards;

    GuardCheck(Guards guards) {
        this.guards = guards;
    }

    @Override
    public boolean appliesTo(String tool) {
        return guards.checks(tool);
    }

    @Override
    public void check(ToolCall call, Context context, Consumer<Outcome> then) {
        if (!guards.checks(call.name())) {
            then.accept(new Allowed());
            return;
        }
        Judgement j = guards.check(call, context.facts());
        for (Judgement.Checked c : j.verdicts()) {
            if (!c.refuses() && !(c.verdict() instanceof Verdict.Pass)) {
                Logger.debug("policy check {} on {}: {}{}: {}", c.rule().id(), call.name(), c.verdict().word(),
                        c.rule().enforced() ? "" : " (logged only)", c.verdict().reason());
            }
        }
        then.accept(j.refused() ? new Refused(j.reason(), j.message()) : new Allowed());
    }
}
