package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.flow.bind.BindingMemo;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.predict.StepMemo;

/**
 * What a flow session's decisions keep from one to the next so that a decision late in a long
 * session costs about what one early in it costs: the steps read so far ({@link StepMemo}),
 * what the binding rule read ({@link BindingMemo}) and the exploration key's hash so far
 * ({@link ExplorationKeys}). A decision made with a memo is the one made without. Not
 * thread-safe: one per flow session, used by its owner.
 */
public final class DecisionMemo {

    private final StepMemo steps;
    private final BindingMemo binding = new BindingMemo();
    private final ExplorationKeys keys = new ExplorationKeys();

    /** An empty memo for decisions of {@code flow}. */
    public DecisionMemo(Flow flow) {
        this.steps = new StepMemo(flow);
    }

    StepMemo steps() {
        return steps;
    }

    BindingMemo binding() {
        return binding;
    }

    ExplorationKeys keys() {
        return keys;
    }
}
