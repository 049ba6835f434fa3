package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.host.HostOutput;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.trace.log.Source;

/**
 * Where the actor's lines go: the host's output and the server's outbound queue, whose writers
 * write them out (the actor never writes to a side, and never waits on one: both queues gate,
 * and the mailbox holds back the events a full queue could not take). A line is queued only
 * once it is recorded; a line for the server goes with the log's mark, so that with {@code
 * --record-sync} its writer sends it only once the log has it on disk. The proxy's own answers
 * to the host are written here too. Actor thread only.
 */
final class Sides {
    private final Ledger ledger;
    private final CallTable calls;
    private final HostOutput toHost;
    private final LineQueue<ServerWriter.Item> toServer;
    private boolean serverInputClosed;
    private boolean serverEnded;

    Sides(Ledger ledger, CallTable calls, HostOutput toHost, LineQueue<ServerWriter.Item> toServer) {
        this.ledger = ledger;
        this.calls = calls;
        this.toHost = toHost;
        this.toServer = toServer;
    }

    /** Queues {@code line}, recorded already, for the host. */
    void toHost(Line line) {
        toHost.put(line);
    }

    /** Queues {@code line}, recorded already, for the server, with the log's mark so far, which covers it. */
    void toServer(Line line) {
        toServer.put(new ServerWriter.Write(line.bytes(), line.terminated(), ledger.mark()));
    }

    /**
     * The proxy answers the host with {@code message} (one answer, or a batch of them): logged
     * as the proxy's, in the episode when it answers a call, and queued for the host.
     */
    void answer(JsonNode message) {
        Line line = new Line(ProxyLines.bytes(message), true);
        long t = ledger.record(Source.PROXY, line);
        if (calls.answeredByProxy(message)) {
            ledger.episode(t, Source.PROXY, message);
        }
        toHost.put(line);
    }

    /** The server's input ends: the host closed its input and nothing of the proxy's needs the server. */
    void endServerInput() {
        if (!serverInputClosed) {
            serverInputClosed = true;
            toServer.put(new ServerWriter.EndOfInput());
        }
    }

    /** Whether the server's input has ended. */
    boolean serverInputClosed() {
        return serverInputClosed;
    }

    /** The server is finished: it answers nothing any more. */
    void serverEnded() {
        serverEnded = true;
    }

    /** Whether nothing can be sent to the server any more: it is finished, or its input has ended. */
    boolean serverGone() {
        return serverEnded || serverInputClosed;
    }
}
