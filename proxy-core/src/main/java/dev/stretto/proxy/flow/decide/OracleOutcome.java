package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** What came back for a question a decision asked the System-One model. */
public sealed interface OracleOutcome {

    /**
     * The model answered.
     *
     * @param response the response object ({@code model}, {@code answers}, {@code usage})
     * @param key      the request's cache key
     */
    record Answered(JsonNode response, String key) implements OracleOutcome {
        /** Copies the response. */
        public Answered {
            response = response.deepCopy();
            Objects.requireNonNull(key, "key");
        }

        /** The response; a copy. */
        @Override
        public JsonNode response() {
            return response.deepCopy();
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
