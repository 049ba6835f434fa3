package dev.stretto.proxy.http;

import dev.stretto.proxy.http.ServerMessages.StreamEnd;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.scope.Interruptions;

/**
 * The standalone GET stream: the messages the server sends on its own (log messages,
 * list-changed notifications, requests such as roots/list). It opens once the server has
 * accepted {@code notifications/initialized}, and is opened again whenever it drops, with the
 * last event id seen and after the server's {@code retry:} hint; attempts that go nowhere back
 * off exponentially up to the cap. 405 means the server offers no such stream, and a 404 on
 * the session id means the session is over; either ends the loop quietly. Any other client
 * error but 408 and 429 (the 404 or 400 of a stateless server, a 401 or 403) would come again
 * for the same request: it is said once, at info level, and the stream is not asked for again,
 * as the SDK's client does. Server errors and failures to connect are tried again.
 *
 * <p>Threads: {@link #call} is a fork of the session's scope. It returns only once the
 * upstream is finished (so a server without a GET stream does not end the session); {@link
 * #stop} is called by the thread that ends the upstream, and interrupts the loop.
 */
final class EventStream implements Callable<Void> {

    private final Link link;
    private final CompletableFuture<Boolean> start;
    private final CountDownLatch finished;
    private final Object lock = new Object();
    // Guarded by lock.
    private boolean stopped;
    // Guarded by lock.
    private Thread reader;

    /**
     * @param start    completes with true when the stream should open, false when it never will
     * @param finished counted down once the upstream is finished
     */
    EventStream(Link link, CompletableFuture<Boolean> start, CountDownLatch finished) {
        this.link = link;
        this.start = start;
        this.finished = finished;
    }

    @Override
    public Void call() throws InterruptedException {
        synchronized (lock) {
            if (!stopped) {
                reader = Thread.currentThread();
            }
        }
        try {
            if (awaitStart()) {
                loop();
            }
        } catch (InterruptedException e) {
            if (!isStopped()) {
                throw e;
            }
        } finally {
            synchronized (lock) {
                reader = null;
                // An interrupt from stop() that landed after the loop ended is not for us.
                if (stopped) {
                    Thread.interrupted();
                }
            }
        }
        finished.await();
        return null;
    }

    /** Ends the loop and closes the stream; idempotent, from any thread. */
    void stop() {
        synchronized (lock) {
            stopped = true;
            if (reader != null) {
                reader.interrupt();
            }
        }
        start.complete(false);
    }

    private boolean awaitStart() throws InterruptedException {
        try {
            return start.get();
        } catch (ExecutionException notUsed) {
            return false;
        }
    }

    private void loop() throws InterruptedException {
        StreamCursor cursor = new StreamCursor();
        int failures = 0;
        boolean warned = false;
        boolean first = true;
        while (!isStopped() && !link.state().ended()) {
            if (!first) {
                Thread.sleep(link.tuning().delay(failures, cursor.retryMillis()));
            }
            first = false;
            String problem;
            try {
                HttpResponse<InputStream> response = link.http().get(cursor.lastEventId());
                int status = response.statusCode();
                if (status == 405) {
                    close(response);
                    return;
                }
                if (status == 404 && McpHttp.sentSessionId(response)) {
                    close(response);
                    link.lifecycle().sessionEnded();
                    return;
                }
                if (refusedForGood(status)) {
                    close(response);
                    Logger.info("the server answered HTTP {} to the GET for its own event stream, so it has none:"
                            + " what it sends outside the answers to requests cannot reach the host", status);
                    return;
                }
                if (status >= 200 && status <= 299 && McpHttp.mediaType(response).equals("text/event-stream")) {
                    StreamEnd end = link.messages().read(response.body(), cursor, "the server's own event stream",
                            false);
                    if (end.broken() != null && Interruptions.isInterruption(end.broken())) {
                        throw new InterruptedException();
                    }
                    if (end.events() > 0) {
                        failures = 0;
                        warned = false;
                        continue;
                    }
                    problem = "it closed without sending anything";
                } else {
                    close(response);
                    problem = "HTTP " + status;
                }
            } catch (IOException e) {
                if (Interruptions.isInterruption(e)) {
                    throw new InterruptedException();
                }
                // No answer at all: Reachability has said so, for every exchange at once.
                problem = null;
            }
            failures++;
            if (problem != null && !warned && !isStopped()) {
                warned = true;
                link.warn().accept("the server's own event stream could not be opened (" + problem
                        + "); trying again with growing delays");
            }
        }
    }

    /** A client error that asking again would only repeat (not a timeout, not a rate limit). */
    static boolean refusedForGood(int status) {
        return status >= 400 && status <= 499 && status != 408 && status != 429;
    }

    private boolean isStopped() {
        synchronized (lock) {
            return stopped || link.lifecycle().aborted();
        }
    }

    private static void close(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // Nothing more is read from it.
        }
    }
}
