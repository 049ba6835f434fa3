package dev.stretto.proxy.active;

import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.session.Session;
import dev.stretto.trace.episode.Episode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A whole active-mode session (the real Session, actor, mailbox and writers) between a
 * {@link LiveHost} and a {@link FakeServer}, on a clock the test moves by hand.
 */
final class ActorHarness implements AutoCloseable {
    /** How long the session waits, at its end, for a host that takes nothing. */
    static final Duration HOST_STALL = Duration.ofSeconds(5);

    final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    final FakeServer server = new FakeServer();
    final MemoryLog log = new MemoryLog();
    final ActiveSession active;
    final LiveHost host;

    /** The session {@code mode} asks for: its checks, and its flow if it serves one. */
    ActorHarness(ActiveMode mode) {
        this(mode, null, null);
    }

    /** With these checks (null: the mode's own), and {@code hook} (null: the mode's own). */
    ActorHarness(ActiveMode mode, List<CallCheck> checks, AnswerHook hook) {
        AnswerHook answers = hook != null ? hook : ActiveSession.hookOf(mode, MemoryLog.HEADER, nanos::get);
        active = new ActiveSession(mode, MemoryLog.HEADER, nanos::get, nanos.get(), Actor.REQUEST_TIMEOUT,
                checks != null ? checks : ActiveSession.checksOf(mode, nanos::get), answers);
        host = LiveHost.start((in, out) -> {
            try (HostInput input = HostInput.start(in, "test-host-stdin")) {
                return new Session("test-session", server, log, null, input, out, HOST_STALL, active).run().status();
            }
        });
    }

    /** Moves the clock on by {@code d} and lets the actor look at it. */
    void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
        active.tick();
    }

    /** The actor's episode now, once it has handled everything before this question. */
    Episode episode() throws Exception {
        return active.episode().get(LiveHost.WAIT_S, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.readAgain();
        host.close();
        server.exit(0);
    }
}
