package dev.stretto.proxy.flow;

/**
 * A flow cannot be learned or promoted from this input: no session logs, no successful
 * session, no known tools, too few tasks to hold some out, a decider the flow cannot be scored
 * with, or System-One answers that cannot be had (no key, not in the cache, over the budget,
 * the service failing). The message is one line for the user, saying what to do instead.
 */
public final class FlowException extends Exception {

    /**
     * An input that cannot make a flow.
     *
     * @param message what is wrong, for the user
     */
    public FlowException(String message) {
        super(message, null, false, false);
    }
}
