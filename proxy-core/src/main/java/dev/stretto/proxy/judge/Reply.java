package dev.stretto.proxy.judge;

import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import java.util.Objects;

/** What came back for one of the judge's requests: the oracle's response, or why there is none. */
public sealed interface Reply {

    /**
     * The oracle answered.
     *
     * @param response its response
     */
    record Answered(Response response) implements Reply {
        /** @throws NullPointerException if the response is null */
        public Answered {
            Objects.requireNonNull(response, "response");
        }
    }

    /**
     * The oracle could not answer.
     *
     * @param reason why, as it goes into the confirm log's {@code error}
     */
    record Failed(String reason) implements Reply {
        /** @throws NullPointerException if the reason is null */
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Asks {@code oracle} and turns a failure into {@link Failed}; meant for the thread that
     * runs the question, off the session's actor.
     *
     * @throws InterruptedException if that thread is interrupted while waiting
     */
    static Reply ask(Oracle oracle, Request request) throws InterruptedException {
        try {
            return new Answered(oracle.ask(request));
        } catch (OracleException e) {
            return new Failed(e.getMessage());
        } catch (RuntimeException e) {
            // A judge that cannot answer refuses nothing, whatever the reason.
            return new Failed("the oracle failed: " + e);
        }
    }
}
