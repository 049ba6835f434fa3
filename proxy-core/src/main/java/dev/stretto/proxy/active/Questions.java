package dev.stretto.proxy.active;

import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.Request;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The questions the actor asks the System-One model. Each runs in a fork of its own (an answer
 * may take minutes), and comes back through the mailbox as an event numbered with the question's
 * ticket, so the part that asked knows it for its own: a flow's decision gets an {@link
 * Event.OracleAnswer}, the confirmation judge an {@link Event.JudgeAnswer}. A fork cut short by
 * the session's end (the only thing that interrupts one) posts nothing: what the cut-short work
 * would report is not an answer, and whatever waited for it ends with the session. The tickets
 * are handed out on the actor's thread; the forks post from theirs.
 */
final class Questions {
    private final Executor forks;
    private final Mailbox mailbox;
    // Actor thread only.
    private long asked;

    /**
     * @param forks   where the questions run: forks of a scope nested in the session's
     * @param mailbox where the answers go
     */
    Questions(Executor forks, Mailbox mailbox) {
        this.forks = forks;
        this.mailbox = mailbox;
    }

    /** Asks {@code request} for a flow's decision; the answer comes as an {@link Event.OracleAnswer}. */
    long forFlow(Oracle oracle, Request request) {
        return ask(() -> OracleOutcome.ask(oracle, request),
                failure -> new OracleOutcome.Failed(String.valueOf(failure), request.key()),
                Event.OracleAnswer::new);
    }

    /** Asks {@code request} for the confirmation judge; the answer comes as an {@link Event.JudgeAnswer}. */
    long forJudge(Oracle oracle, Request request) {
        return ask(() -> Reply.ask(oracle, request),
                failure -> new Reply.Failed("the question was not answered: " + failure),
                Event.JudgeAnswer::new);
    }

    /** Post the answer to the question with this ticket. */
    private interface Answer<T> {
        Event.Posted of(long ticket, T answer);
    }

    private <T> long ask(Callable<T> work, Function<Throwable, T> failed, Answer<T> answer) {
        long ticket = ++asked;
        forks.execute(() -> {
            T result = null;
            Throwable failure = null;
            try {
                result = work.call();
            } catch (Throwable t) {
                failure = t;
            }
            if (failure instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                return;
            }
            try {
                mailbox.put(answer.of(ticket, result != null ? result : failed.apply(failure)));
            } catch (InterruptedException e) {
                // The session is ending: nobody will take the answer.
                Thread.currentThread().interrupt();
            }
        });
        return ticket;
    }
}
