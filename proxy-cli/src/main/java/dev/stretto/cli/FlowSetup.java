package dev.stretto.cli;

import dev.stretto.proxy.FlowSettings;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Flow;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowFormatException;
import java.io.IOException;
import java.util.Map;

/**
 * What {@code stretto-proxy --flow FILE} serves: the flow read and checked (formats 2.13, 3.1),
 * and, for a flow that decides with its arbiter, the oracle it asks ({@code --oracle},
 * {@code --oracle-cache}, and the environment as {@link OracleEnvironment} reads it; see
 * {@link SessionOracle}). Only an arbiter asks, so only then are the oracle's settings read,
 * and {@code --oracle jev} needs a key. The caller closes the oracle once the session has ended.
 *
 * @param served the flow to serve
 * @param oracle the oracle its arbiter asks, or null for habit and reach
 */
record FlowSetup(FlowSettings served, Oracle oracle) {

    /**
     * Why the flow cannot be served.
     *
     * @param usage true for a usage error (exit 2: the oracle's environment); false when the
     *              proxy cannot start (exit 125: the flow cannot be read or served)
     */
    static final class Failure extends Exception {
        private final boolean usage;

        Failure(String message, boolean usage) {
            super(message);
            this.usage = usage;
        }

        boolean usage() {
            return usage;
        }
    }

    /** Reads the flow of {@code choice} and opens what it needs. */
    static FlowSetup of(ProxyOptions.FlowChoice choice, ProxyOptions.OracleChoice oracle, Map<String, String> env,
                        HostEnvironment host) throws Failure {
        String source = choice.file().toString();
        Flow flow;
        FlowSettings served;
        try {
            flow = FlowFiles.read(host.resolve(choice.file(), "flow", "file"));
            served = choice.settings(flow, source);
        } catch (FlowFormatException | ProxyStartException e) {
            throw new Failure(e.getMessage(), false);
        } catch (IllegalArgumentException e) {
            throw new Failure(e.getMessage(), true);
        } catch (IOException e) {
            throw new Failure("cannot read the flow " + source + ": " + ProxyMessages.describe(e), false);
        }
        if (served.decider() != DeciderKind.ARBITER) {
            return new FlowSetup(served, null);
        }
        OracleMode mode = oracle.mode();
        try {
            OracleSettings.Builder fromEnvironment = OracleEnvironment.read(env, mode);
            if (mode == OracleMode.JEV && !OracleEnvironment.keyGiven(env)) {
                throw new IllegalArgumentException("the flow " + source + " decides with its arbiter, which asks the"
                        + " System-One model: set " + OracleEnvironment.API_KEY + " or " + OracleEnvironment.API_KEY_FILE
                        + " (or serve it with --oracle replay, answering from the cache, or with --flow-decider "
                        + (flow.hasReach() ? "reach" : "habit") + ")");
            }
            OracleSettings settings = SessionOracle.settings(fromEnvironment, oracle, host);
            return new FlowSetup(served, SessionOracle.open(settings));
        } catch (IllegalArgumentException e) {
            throw new Failure(e.getMessage(), true);
        }
    }
}
