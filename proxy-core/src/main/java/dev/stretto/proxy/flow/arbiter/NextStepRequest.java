package dev.stretto.proxy.flow.arbiter;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.oracle.Question;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.manifest.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one request an arbiter decision asks the System-One model (formats 4.5), word for word
 * as the reference asks it, since its hash is the answer's cache key:
 * <ul>
 *   <li>{@code next} (a choice): which lookup the agent makes now, or {@code respond};</li>
 *   <li>{@code go_on} (yes/no): whether it makes another lookup before it writes or acts;</li>
 *   <li>{@code tool} (a choice, only when the site offers two or more lookups): which one;</li>
 *   <li>{@code pred_<id>} (yes/no) for each of the flow's predicates.</li>
 * </ul>
 * A lookup is described by its manifest summary ({@code Call <tool>.} without one), then what
 * its results supplied to writes in training ({@code sites.feeds}), clipped to 250 characters.
 * The state is the {@link StateSlice} of the episode. The texts come from formats 4.5, which
 * was read from an older version of the reference than the newest ("the v2 questions"); they
 * are what the documentation gives.
 */
public final class NextStepRequest {

    /** Who the agent is; every question starts with it. */
    public static final String CTX = "A customer-service agent is working on the customer's request. Between its"
            + " messages to the customer it can look things up with tools. It makes changes (cancellations,"
            + " modifications, exchanges, returns, bookings) and transfers only after the customer confirms them.";

    /** The {@code respond} option's meaning. */
    public static final String HAND_BACK = "Hand back: the agent writes to the customer now (to ask for missing"
            + " details or a confirmation, report what it found, or answer), or it makes a change or a transfer.";

    /** The id of the one-question answer. */
    public static final String NEXT = "next";
    /** The id of the yes/no half of the split answer. */
    public static final String GO_ON = "go_on";
    /** The id of the which-lookup half of the split answer. */
    public static final String TOOL = "tool";
    /** The prefix of each predicate's question id. */
    public static final String PREDICATE = "pred_";

    static final String GO_ON_TRUE = "It still needs information it can look up before it can reply or act.";
    static final String GO_ON_FALSE = "It has what it needs for now: it writes to the customer, or makes a change.";
    static final int DOC_CHARS = 250;

    private final FlowManifest manifest;
    private final Map<String, Map<Sites.Feed, Long>> feeds;
    private final List<Predicate> predicates;
    private final String model;

    /** The requests of {@code flow}: its manifest, feeds, predicates and model. */
    public NextStepRequest(Flow flow) {
        this.manifest = flow.manifest();
        this.feeds = flow.sites().feeds();
        this.predicates = flow.predicates();
        this.model = Objects.requireNonNull(flow.model(), "model");
    }

    /** The sentence about the call just made: its result came back, or it failed. */
    public static String last(Sites.Site site) {
        return site.failed() ? "Its last tool call, `" + site.tool() + "`, returned an error."
                : "It has just received the result of `" + site.tool() + "`.";
    }

    /**
     * The request at {@code site}.
     *
     * @param offered the lookups offered there, sorted by name (at least one)
     * @param episode the episode cut at the site's call
     * @throws IllegalArgumentException when nothing is offered
     */
    public Request request(Sites.Site site, List<String> offered, Episode episode) {
        if (offered.isEmpty()) {
            throw new IllegalArgumentException("a site that offers no lookups asks nothing");
        }
        String lead = CTX + " " + last(site) + " ";
        Map<String, Question> questions = new LinkedHashMap<>();
        Map<String, String> options = new LinkedHashMap<>();
        options.put(Predictions.RESPOND, HAND_BACK);
        Map<String, String> lookups = new LinkedHashMap<>();
        for (String tool : offered) {
            lookups.put(tool, doc(tool));
        }
        options.putAll(lookups);
        questions.put(NEXT, new Question.Choice(lead + "What does it do next? Pick the lookup it makes now, or"
                + " 'respond' if it hands back.", options));
        questions.put(GO_ON, new Question.Noul(lead + "Does it make another lookup now, before it writes to the"
                + " customer or makes any change?", new Question.NoulCriteria(GO_ON_TRUE, GO_ON_FALSE)));
        if (offered.size() > 1) {
            questions.put(TOOL, new Question.Choice(lead + "Suppose it makes one more lookup now: which one?",
                    lookups));
        }
        for (Predicate p : predicates) {
            questions.put(PREDICATE + p.id(), new Question.Noul(CTX + " " + p.question(),
                    new Question.NoulCriteria(p.yes(), p.no())));
        }
        return Request.of(model, StateSlice.of(episode), questions);
    }

    /** What a lookup does, for the model: its summary and feeds hint, clipped. */
    String doc(String tool) {
        Manifest.ToolDoc d = manifest.docs().get(tool);
        String summary = d == null ? "" : Clip.trim(d.summary());
        String text = summary.isEmpty() ? "Call " + tool + "." : summary;
        Map<Sites.Feed, Long> fed = feeds.get(tool);
        if (fed != null && !fed.isEmpty()) {
            List<String> parts = new ArrayList<>();
            fed.keySet().forEach(f -> parts.add("`" + f.argument() + "` for `" + f.write() + "`"));
            text += " Its results supply " + String.join(", ", parts) + ".";
        }
        return Clip.clip(text, DOC_CHARS);
    }
}
