package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.guard.Facts;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The session's checks (the policy guards, then the confirmation judge), which each of the
 * agent's calls passes before it is sent: in order, the first refusal stopping the call. Before
 * each call is checked the conversation is read, so the checks see what was said up to it.
 *
 * <p>A check may decide at once (the guards) or later (the judge asks the model, in a fork):
 * the chain's outcome is then {@linkplain Pending pending}, the call waits while other traffic
 * flows, and the model's answers come back as {@link Event.JudgeAnswer}s, which the actor hands
 * here. The chain knows how many calls wait for it, so the server's input is closed only once
 * none does. Actor thread only.
 */
final class CheckChain implements AutoCloseable {
    private final List<CallCheck> checks;
    private final Ledger ledger;
    private final Questions questions;
    private final Runnable readConversation;
    private final Predicate<String> checkedTool;
    // Actor thread only: the judge's questions still unanswered, by ticket, and the outcomes
    // that callers wait for.
    private final Map<Long, Consumer<Reply>> asked = new HashMap<>();
    private int waitedFor;

    /**
     * @param readConversation reads the conversation's new lines (the actor takes each as an event)
     */
    CheckChain(List<CallCheck> checks, Ledger ledger, Questions questions, Runnable readConversation) {
        this.checks = List.copyOf(checks);
        this.ledger = ledger;
        this.questions = questions;
        this.readConversation = readConversation;
        this.checkedTool = tool -> this.checks.stream().anyMatch(c -> c.appliesTo(tool));
    }

    /** Whether calls are checked at all: then each must reach the server as the checks read it. */
    boolean guarding() {
        return !checks.isEmpty();
    }

    /** Whether some check may refuse calls of a tool. */
    Predicate<String> checkedTool() {
        return checkedTool;
    }

    /** Reads the conversation, then puts {@code call} through the checks. */
    Pending<CallCheck.Outcome> check(ToolCall call) {
        readConversation.run();
        Context context = new Context();
        Pending<CallCheck.Outcome> outcome = new Pending<>(context);
        run(0, call, context, outcome);
        return outcome;
    }

    /** Checks {@code calls} one after the other (as {@link #check}), up to the first refusal. */
    Pending<List<CallCheck.Outcome>> checkEach(List<ToolCall> calls) {
        Pending<List<CallCheck.Outcome>> outcomes = new Pending<>(null);
        checkFrom(calls, 0, new ArrayList<>(), outcomes);
        return outcomes;
    }

    /** An outcome decided already, as the chain's outcomes are handed on. */
    <T> Pending<T> decided(T value) {
        Pending<T> outcome = new Pending<>(null);
        outcome.accept(value);
        return outcome;
    }

    /** The model answered one of the judge's questions. */
    void answered(Event.JudgeAnswer answer) {
        Consumer<Reply> then = asked.remove(answer.ticket());
        if (then != null) {
            then.accept(answer.reply());
        }
    }

    /** Whether no call waits for the chain's outcome. */
    boolean idle() {
        return waitedFor == 0;
    }

    /** Whether some check waits for something it looks at on the actor's clock. */
    boolean needsClock() {
        return checks.stream().anyMatch(CallCheck::needsClock);
    }

    /** The actor's clock ticked: hands it to the checks. */
    void tick() {
        for (CallCheck c : checks) {
            c.tick();
        }
    }

    /** The session is over: each check releases what it holds; outcomes still to come are dropped. */
    @Override
    public void close() {
        asked.clear();
        checks.forEach(CallCheck::close);
    }

    private void run(int i, ToolCall call, CallCheck.Context context, Consumer<CallCheck.Outcome> then) {
        if (i == checks.size()) {
            then.accept(new CallCheck.Allowed());
            return;
        }
        checks.get(i).check(call, context, o -> {
            if (o instanceof CallCheck.Refused) {
                then.accept(o);
            } else {
                run(i + 1, call, context, then);
            }
        });
    }

    private void checkFrom(List<ToolCall> calls, int i, List<CallCheck.Outcome> done,
                           Consumer<List<CallCheck.Outcome>> then) {
        if (i == calls.size()) {
            then.accept(done);
            return;
        }
        check(calls.get(i)).then(o -> {
            done.add(o);
            if (o instanceof CallCheck.Refused) {
                then.accept(done);
            } else {
                checkFrom(calls, i + 1, done, then);
            }
        });
    }

    /**
     * An outcome that may come now or later: if it came while the caller was still busy (the
     * checks decided at once), the caller applies it when it is ready; otherwise it is applied
     * when it comes, and the chain counts it as waited for until then.
     */
    final class Pending<T> implements Consumer<T> {
        private final Context context;
        private T now;
        private Consumer<T> later;

        /** @param context the checks' context, whose log entries wait for the caller; null for none */
        Pending(Context context) {
            this.context = context;
        }

        @Override
        public void accept(T value) {
            if (later != null) {
                waitedFor--;
                later.accept(value);
            } else {
                now = value;
            }
        }

        /** Applies the outcome with {@code apply}: at once if it has come, else when it comes. */
        void then(Consumer<T> apply) {
            if (context != null) {
                // The caller has logged the call by now: what the checks logged comes after it.
                context.flush();
            }
            if (now != null) {
                apply.accept(now);
            } else {
                waitedFor++;
                later = apply;
            }
        }
    }

    /**
     * What the checks of one call see: the facts and the episode as they are when first asked
     * for, made only then (most calls are reads no rule checks, and a busy session's episode
     * is not free to bring up to date).
     */
    private final class Context implements CallCheck.Context {
        private Facts facts;
        private Episode episode;
        // Until the caller takes the outcome: what the checks logged. Null from then on.
        private List<JsonNode> logged = new ArrayList<>();

        @Override
        public Facts facts() {
            if (facts == null) {
                facts = ledger.facts();
            }
            return facts;
        }

        @Override
        public Episode episode() {
            if (episode == null) {
                episode = ledger.episode();
            }
            return episode;
        }

        @Override
        public void ask(Oracle oracle, Request request, Consumer<Reply> then) {
            asked.put(questions.forJudge(oracle, request), then);
        }

        @Override
        public void log(JsonNode message) {
            if (logged != null) {
                logged.add(message);
            } else {
                ledger.record(Source.PROXY, new Line(ProxyLines.bytes(message), true));
            }
        }

        void flush() {
            List<JsonNode> waiting = logged;
            logged = null;
            if (waiting != null) {
                waiting.forEach(this::log);
            }
        }
    }
}
