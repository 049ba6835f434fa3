package dev.stretto.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.util.concurrent.CompletableFuture;

/**
 * A server in the test's own JVM, on a virtual thread, behind two pipes: what a harness with
 * its server in-process would pass as {@link UpstreamSpec.Streams}.
 */
final class InProcessServer {

    /** What the server does with its input and output; both are closed when it returns. */
    interface Behaviour {
        void serve(InputStream in, OutputStream out) throws Exception;
    }

    private final Pipe toServer;
    private final Pipe fromServer;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private InProcessServer(Behaviour behaviour) throws IOException {
        toServer = Pipe.open();
        fromServer = Pipe.open();
        Thread.ofVirtual().name("in-process-server").start(() -> {
            try (InputStream in = Channels.newInputStream(toServer.source());
                 OutputStream out = Channels.newOutputStream(fromServer.sink())) {
                behaviour.serve(in, out);
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
    }

    static InProcessServer start(Behaviour behaviour) throws IOException {
        return new InProcessServer(behaviour);
    }

    /** Copies its input to its output until its input ends, then ends its output: cat. */
    static InProcessServer echo() throws IOException {
        return start((in, out) -> in.transferTo(out));
    }

    UpstreamSpec.Streams spec(String name) {
        return UpstreamSpec.Streams.of(name, Channels.newInputStream(fromServer.source()),
                Channels.newOutputStream(toServer.sink()));
    }

    /** Completes when the server's behaviour has returned (exceptionally when it threw). */
    CompletableFuture<Void> done() {
        return done;
    }
}
