package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.arbiter.NextStepRequest;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The questions the arbiter path asks: at each decision of the held-out episodes whose site
 * offers lookups, the next-step request the served arbiter would ask there, with the flow's
 * predicates (stretto-learn 4.2). A site that offers nothing asks nothing.
 */
public final class ArbiterQuestions {

    private ArbiterQuestions() {
    }

    /**
     * A decision and its request.
     *
     * @param decision the held-out decision
     * @param request  the request asked about it
     */
    public record Asked(HeldOutDecision decision, Request request) {
        /** Requires both. */
        public Asked {
            Objects.requireNonNull(decision, "decision");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * The decisions of {@code heldOut} for {@code flow} (the flow being learned, with its
     * predicates and model) and the requests of those that ask.
     *
     * @param decisions receives every decision, asking or not
     */
    public static List<Asked> of(Flow flow, List<Episode> heldOut, List<HeldOutDecision> decisions) {
        NextStepRequest requests = new NextStepRequest(flow);
        List<Asked> asked = new ArrayList<>();
        for (Episode e : heldOut) {
            for (HeldOutDecision d : HeldOutDecision.of(e, flow)) {
                decisions.add(d);
                if (!d.offered().isEmpty()) {
                    asked.add(new Asked(d, requests.request(d.site(), d.offered(), d.view().episode())));
                }
            }
        }
        return asked;
    }
}
