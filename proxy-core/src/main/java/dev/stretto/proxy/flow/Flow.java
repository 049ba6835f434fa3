package dev.stretto.proxy.flow;

import dev.stretto.trace.manifest.ToolKind;
import java.util.Map;

/**
 * A learned flow, as a {@code *.flow.json} file holds it: after which of an agent's calls it
 * makes which read-only lookups, how it binds their arguments from earlier results, and how
 * sure it must be. A session serves one with {@code ActiveSettings.Builder.flow}; {@link
 * FlowFiles} reads and writes them, {@link Learning} learns one from sessions, {@link
 * Promotion} promotes one from its shadow runs and {@link FlowView} shows what it holds.
 *
 * <p>Flows are made by this package only: a program does not implement this interface (the
 * package refuses a flow it did not make). A flow is immutable and may be served by any
 * number of sessions at once.
 */
public interface Flow {

    /**
     * The domain the flow serves.
     *
     * @return the manifest's domain, such as {@code retail}
     */
    String domain();

    /**
     * The file format the flow is written in.
     *
     * @return 1, or 2 when it carries a field of format 2 (per-site thresholds, newer binding
     *         fields)
     */
    int format();

    /**
     * The server's tools as the flow knows them; only {@link ToolKind#READ} tools are ever
     * looked up.
     *
     * @return each tool's kind, by name in byte order
     */
    Map<String, ToolKind> tools();

    /**
     * Whether the flow carries an arbiter, which asks the System-One model at each decision.
     *
     * @return true when it has fitted folds
     */
    boolean hasArbiter();

    /**
     * Whether the flow carries reach counts, with which the reach decider serves it.
     *
     * @return true when it has them (every flow {@code stretto learn} writes does)
     */
    boolean hasReach();
}
