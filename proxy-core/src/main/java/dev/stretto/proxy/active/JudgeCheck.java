package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Rule;
import dev.stretto.proxy.guard.Verdict;
import dev.stretto.proxy.judge.Consultation;
import dev.stretto.proxy.judge.Judge;
import dev.stretto.proxy.judge.Judgment;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import dev.stretto.proxy.logging.Logger;

/**
 * The confirmation judge as a {@link CallCheck}, after the guards: for a call the domain's
 * {@code .confirmed} rule applies to (a write), once the guards found no enforced failure, it
 * asks the model whether the customer explicitly agreed to this exact change. Each question
 * runs in a fork of its own, so the call waits for the answers while every other line flows;
 * the judgment is appended to the confirm log before the call goes on or is refused. In mode
 * {@code enforce} a failing judgment refuses the call; a judge that cannot answer refuses
 * nothing.
 *
 * <p>Runs on the actor's thread, which owns the {@link Judge} (and so the session's question
 * budget) and appends to the confirm log: one short line per judged write, written before the
 * judgment is acted on so that no refusal outlives its line, whatever ends the session.
 */
final class JudgeCheck implements CallCheck {
    private final Guards guards;
    private final Judge judge;
    private final Oracle oracle;
    private final SideLogWriter confirmLog;
    private final LongSupplier ticker;
    // Actor thread only.
    private boolean budgetReported;

    /**
     * @param guards     the session's guards: their {@code .confirmed} rule says which calls are judged
     * @param judge      the session's judge
     * @param oracle     answers the questions, in forks
     * @param confirmLog where each judgment's line goes, or null for nowhere
     * @param ticker     the actor's clock, in nanoseconds, for how long a call waited
     */
    JudgeCheck(Guards guards, Judge judge, Oracle oracle, SideLogWriter confirmLog, LongSupplier ticker) {
        this.guards = guards;
        this.judge = judge;
        this.oracle = oracle;
        this.confirmLog = confirmLog;
        this.ticker = ticker;
    }

    @Override
    public boolean appliesTo(String tool) {
        return confirmationRule(tool) != null;
    }

    @Override
    public void check(ToolCall call, Context context, Consumer<Outcome> then) {
        Rule confirmation = confirmationRule(call.name());
        if (confirmation == null) {
            then.accept(new Allowed());
            return;
        }
        long start = ticker.getAsLong();
        boolean wordList = confirmation.verdict(call, context.facts()) instanceof Verdict.Pass;
        Consultation consultation;
        try {
            consultation = judge.consult(context.episode(), call.name(), call.arguments(), wordList);
        } catch (RuntimeException e) {
            // A judge that cannot judge refuses nothing; a bug here must not stop the session.
            Logger.warn("the confirmation judge could not judge {}: {}", call.name(), e.toString());
            then.accept(new Allowed());
            return;
        }
        List<Request> requests = consultation.requests();
        if (requests.isEmpty()) {
            conclude(consultation, List.of(), start, then);
            return;
        }
        // One fork per question: a second question costs no extra wait.
        Reply[] replies = new Reply[requests.size()];
        int[] missing = {requests.size()};
        for (int i = 0; i < requests.size(); i++) {
            int at = i;
            context.ask(oracle, requests.get(i), reply -> {
                replies[at] = reply;
                if (--missing[0] == 0) {
                    conclude(consultation, Arrays.asList(replies), start, then);
                }
            });
        }
    }

    /** The domain's rule ending {@code .confirmed} that checks {@code tool}, or null. */
    private Rule confirmationRule(String tool) {
        for (Rule r : guards.domain().rules()) {
            if (r.id().endsWith(".confirmed") && r.appliesTo(tool)) {
                return r;
            }
        }
        return null;
    }

    private void conclude(Consultation consultation, List<Reply> replies, long start, Consumer<Outcome> then) {
        Judgment j = judge.conclude(consultation, replies, Math.max(0, (ticker.getAsLong() - start) / 1_000_000));
        if (confirmLog != null) {
            confirmLog.write(j.logLine());
        }
        String tool = consultation.tool();
        if (j.error() != null) {
            Logger.warn("the confirmation judge could not answer on {}: {}", tool, j.error());
        }
        if (consultation.skipped() != null && !budgetReported) {
            budgetReported = true;
            Logger.warn("the confirmation judge judges no more calls in this session: {} (--confirm-questions {})",
                    consultation.skipped(), judge.settings().questions());
        }
        if (j.fails() && !j.refuses()) {
            Logger.info("the confirmation judge finds no explicit agreement to {} (logged only): p_yes {}{}", tool,
                    twoDecimals(j.pYes()), j.pSecond() == null ? "" : ", p_second " + twoDecimals(j.pSecond()));
        }
        then.accept(j.refuses() ? new Refused(j.refusalReason(), j.refusal()) : new Allowed());
    }

    /**
     * Loads and links what a judgment uses (the exchange, the request's JSON and SHA-256 key,
     * the proposal check, the confirm line) on a thread of its own while the session starts,
     * so the first judged write does not wait for it. Touches nothing of a session.
     */
    static void warmUp() {
        JsonNode none = JsonNodeFactory.instance.objectNode();
        Judge scratch = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), "warm-up");
        Episode empty = new Episode("warm-up", "warm-up", 0, "warm-up", "warm-up", 0.0, List.of());
        Consultation c = scratch.consult(empty, "x", none, false);
        scratch.conclude(c, List.of(new Reply.Failed("warm-up")), 0).logLine();
    }

    @Override
    public void close() {
        if (confirmLog != null) {
            confirmLog.close();
        }
    }

    private static String twoDecimals(Double p) {
        return p == null ? "none" : CanonicalJson.formatFixed(p, 2);
    }
}
