package dev.stretto.proxy.flow;

import java.io.IOException;

/**
 * A file that is not a flow this build can serve: not JSON, not a flow, a format other than 1
 * and 2, a field of the wrong shape (the message names it, e.g.
 * {@code habit.base.levels[1][3]: ...}), or a program other than the standard run. The
 * message is written for the user; {@code stretto-proxy} prints it and exits with 125.
 */
public final class FlowFormatException extends IOException {

    /**
     * A flow that cannot be used.
     *
     * @param reason why, for the user
     */
    public FlowFormatException(String reason) {
        super(reason);
    }
}
