package dev.stretto.proxy.flow.run;

import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.decide.DeciderChoice;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.model.Flow;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A flow as a proxy session serves it ({@code stretto-proxy --flow FILE} and the
 * {@code --flow-*} options): the flow, how messages name it, how it is served, and where its
 * flow log goes. Made with {@link #of}, which settles the decider (formats 3.1) and checks
 * that the flow can be served with it, so that a session never starts with a flow it cannot
 * serve. Immutable.
 */
public final class ServedFlow {

    private final Flow flow;
    private final String source;
    private final FlowOptions options;
    private final Path log;

    private ServedFlow(Flow flow, String source, FlowOptions options, Path log) {
        this.flow = flow;
        this.source = source;
        this.options = options;
        this.log = log;
    }

    /**
     * A flow to serve.
     *
     * @param flow    the flow
     * @param source  how messages name it: the path it was read from, as given
     * @param options how it is served; its decider, when null, is the flow's default
     * @param log     the flow log's file ({@code --flow-log}), or null for the default: {@code
     *                <session>.flow.jsonl} next to the session log when the session is recorded,
     *                else none
     * @throws ProxyStartException when the flow cannot be served with the decider: the errors
     *                             of {@link DeciderChoice#choose}, or an arbiter this build
     *                             cannot judge with
     */
    public static ServedFlow of(Flow flow, String source, FlowOptions options, Path log) throws ProxyStartException {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(source, "source");
        DeciderKind kind = DeciderChoice.choose(flow, options.decider(), source);
        FlowSession.scorer(flow, kind, source);
        FlowOptions chosen = new FlowOptions(options.threshold(), kind, options.perCall(), options.perSession(),
                options.maxQuestions(), options.tools(), options.shadow(), options.exploration(), options.taskId());
        return new ServedFlow(flow, source, chosen, log);
    }

    /** The flow. */
    public Flow flow() {
        return flow;
    }

    /** How messages name the flow (its path, as given). */
    public String source() {
        return source;
    }

    /** How the flow is served; {@link FlowOptions#decider()} is the decider chosen. */
    public FlowOptions options() {
        return options;
    }

    /** The decider that serves the flow. */
    public DeciderKind decider() {
        return options.decider();
    }

    /** The flow log's file, or null (see {@link #of}). */
    public Path log() {
        return log;
    }

    /** The same flow with its log written to {@code file} (null for none). */
    public ServedFlow withLog(Path file) {
        return new ServedFlow(flow, source, options, file);
    }

    /**
     * The line the proxy prints when it starts serving the flow (after the {@code
     * stretto-proxy: } prefix): {@code serving the <domain> flow from <path>, deciding with
     * <decider>[, in shadow]}.
     */
    public String servingLine() {
        return DeciderChoice.servingLine(flow, source, decider(), options.shadow());
    }

    /**
     * Starts serving the flow in one session.
     *
     * @param sessionId the session's id (the task id unless {@code --task-id} gives one)
     * @param flowLog   where the flow log's lines go
     * @param warnings  where the proxy's messages about the flow go
     * @param clockMs   a millisecond clock
     */
    public FlowSession start(String sessionId, Consumer<String> flowLog, Consumer<String> warnings,
                             LongSupplier clockMs) {
        try {
            return FlowSession.start(flow, FlowSession.scorer(flow, decider(), source), options, sessionId, flowLog,
                    warnings, clockMs);
        } catch (ProxyStartException e) {
            throw new IllegalStateException("checked when the flow was made: " + e.getMessage(), e);
        }
    }
}
