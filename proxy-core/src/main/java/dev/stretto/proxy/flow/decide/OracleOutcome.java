package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import java.util.Objects;

/** What came back for a question a decision asked the System-One model. */
public sealed interface OracleOutcome {

    /**
     * Asks {@code oracle} and turns a failure into {@link Failed}: meant for the thread that
     * runs the question, off the thread that owns the run.
     *
     * @throws InterruptedException if that thread is interrupted while waiting
     */
    static OracleOutcome ask(Oracle oracle, Request request) throws InterruptedException {
        String key = request.key();
        try {
            return new Answered(oracle.ask(request), key);
        } catch (OracleException e) {
            return new Failed(e.getMessage(), key);
        } catch (RuntimeException e) {
            // Whatever went wrong, the decision hands back with it rather than failing the run.
            return new Failed(e.toString(), key);
        }
    }

    /**
     * The model answered.
     *
     * @param response the response
     * @param key      the request's cache key
     */
    record Answered(Response response, String key) implements OracleOutcome {
        /** Requires both. */
        public Answered {
            Objects.requireNonNull(response, "response");
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * No answer: the request failed, or the replay cache had none.
     *
     * @param error the error as the flow log words it (after {@code the System-One model failed: })
     * @param key   the request's cache key, or null when none was computed
     */
    record Failed(String error, String key) implements OracleOutcome {
        /** Requires an error. */
        public Failed {
            Objects.requireNonNull(error, "error");
        }
    }
}
