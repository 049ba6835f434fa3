package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The confirmation judge of one session ({@code --confirm-judge log|enforce}): asks the
 * System-One model whether the customer really agreed to the exact change a write is about to
 * make, and in mode {@code enforce} refuses the write when the answer says no.
 *
 * <p>It runs in two steps so that the question itself can run wherever the caller likes (off
 * the session's actor): {@link #consult} builds the requests from the episode and the call,
 * and {@link #conclude} turns the replies into a {@link Judgment}. Which calls are judged is
 * the caller's business: those the domain's {@code .confirmed} guard rule applies to, once the
 * guards found no enforced failure, and each call of {@code stretto_commit}.
 *
 * <p>A judge that cannot answer refuses nothing: a missing key, a replay miss, a failed
 * service, an answer that is not a yes/no answer, a spent question budget all leave the
 * judgment unknown.
 *
 * <p>Not thread-safe: it counts the session's questions, so one thread (the actor) uses it.
 */
public final class Judge {

    private final JudgeSettings settings;
    private final String model;
    // The session's remaining questions. Actor thread only.
    private int questionsLeft;

    /**
     * A judge with a fresh question budget.
     *
     * @param settings how it judges (the settings a session was given)
     * @param model    the model id its requests name (the oracle's); part of each cache key
     */
    public Judge(JudgeSettings settings, String model) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.model = Objects.requireNonNull(model, "model");
        this.questionsLeft = settings.questions();
    }

    /** The settings. */
    public JudgeSettings settings() {
        return settings;
    }

    /** The model id its requests name. */
    public String model() {
        return model;
    }

    /** How many questions the session may still ask. */
    public int questionsLeft() {
        return questionsLeft;
    }

    /**
     * Prepares the judgment of a call: the exchange, the requests (their keys are logged even
     * when they are not asked), the proposal check, and the budget. A call needs one question,
     * two with a second question (counting or shadow); when fewer are left, nothing is asked
     * and the judgment will be unknown. Otherwise the questions are spent now.
     *
     * @param episode   the session so far
     * @param tool      the tool about to be called
     * @param arguments its arguments
     * @param wordList  whether the domain's {@code .confirmed} rule passed
     */
    public Consultation consult(Episode episode, String tool, JsonNode arguments, boolean wordList) {
        Exchange exchange = Exchange.of(episode);
        JsonNode state = exchange.state(tool, arguments);
        Request confirmed = Request.of(model, state, ConfirmQuestions.CONFIRMED_ID, ConfirmQuestions.CONFIRMED);
        JudgeSettings.Second s = settings.second();
        Request second = s == null ? null : Request.of(model, state, s.id(), ConfirmQuestions.second(s));
        int needed = second == null ? 1 : 2;
        String skipped = null;
        if (questionsLeft < needed) {
            skipped = Consultation.BUDGET_SPENT;
        } else {
            questionsLeft -= needed;
        }
        return new Consultation(tool, arguments, wordList, exchange, confirmed, second, skipped,
                ProposalCheck.of(episode, arguments, exchange));
    }

    /**
     * Judges from the replies to {@link Consultation#requests()}, in the same order.
     *
     * @param ms how long asking took, for the log
     * @throws IllegalArgumentException if there is not one reply per request
     */
    public Judgment conclude(Consultation consultation, List<Reply> replies, long ms) {
        if (replies.size() != consultation.requests().size()) {
            throw new IllegalArgumentException("expected " + consultation.requests().size() + " replies, got "
                    + replies.size());
        }
        List<String> errors = new ArrayList<>();
        Double pYes = null;
        Double pSecond = null;
        if (consultation.skipped() == null) {
            pYes = yes(replies.get(0), ConfirmQuestions.CONFIRMED_ID, errors);
            if (consultation.second() != null) {
                pSecond = yes(replies.get(1), settings.second().id(), errors);
            }
        }
        boolean secondCounts = settings.second() != null && !settings.secondShadow();
        boolean firstFails = pYes != null && pYes < settings.threshold();
        boolean secondFails = secondCounts && pSecond != null && pSecond < settings.threshold();
        boolean fails = firstFails || secondFails;
        boolean missing = pYes == null || (secondCounts && pSecond == null);
        boolean unknown = !fails && missing;
        boolean enforced = settings.mode() == JudgeSettings.Mode.ENFORCE;
        String refusal = enforced && fails ? refusal(consultation.tool(), pYes, secondCounts ? pSecond : null) : null;
        return new Judgment(consultation, enforced, settings.secondShadow(), pYes, pSecond,
                errors.isEmpty() ? null : String.join("; ", errors), fails, unknown, refusal, ms);
    }

    private static Double yes(Reply reply, String id, List<String> errors) {
        return switch (reply) {
            case Reply.Failed f -> {
                errors.add(f.reason());
                yield null;
            }
            case Reply.Answered a -> {
                if (a.response().answers().get(id) instanceof Answer.Noul n) {
                    yield n.noul();
                }
                errors.add("no yes/no answer to " + id);
                yield null;
            }
        };
    }

    /**
     * The text the agent gets instead of the result of a refused call: the policy check's
     * refusal with {@link #reason} as its reason.
     */
    static String refusal(String tool, Double pYes, Double pSecond) {
        return "Refused by the policy check, so " + tool + " was not run and nothing changed: " + reason(pYes, pSecond)
                + ".";
    }

    /**
     * Why a call is refused, bare (as a commit's result and stderr quote it), naming the
     * answers that count with two decimals.
     */
    static String reason(Double pYes, Double pSecond) {
        List<String> answers = new ArrayList<>();
        if (pYes != null) {
            answers.add("p_yes " + CanonicalJson.formatFixed(pYes, 2));
        }
        if (pSecond != null) {
            answers.add("p_second " + CanonicalJson.formatFixed(pSecond, 2));
        }
        return "the customer has not explicitly agreed to this exact change (confirmation judge: "
                + String.join(", ", answers) + "); describe the change and ask the customer to confirm it first";
    }
}
