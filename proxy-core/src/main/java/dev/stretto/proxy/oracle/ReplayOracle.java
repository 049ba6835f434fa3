package dev.stretto.proxy.oracle;

import java.util.Objects;

/**
 * {@code --oracle replay}: answers from the cache only, so a session replays the answers an
 * earlier one got, with no network. A miss fails with {@code replay cache miss for request <key>}.
 *
 * @param cache the answers
 */
public record ReplayOracle(OracleCache cache) implements Oracle {

    /** @throws NullPointerException if the cache is null */
    public ReplayOracle {
        Objects.requireNonNull(cache, "cache");
    }

    @Override
    public Response ask(Request request) {
        String key = request.key();
        return cache.find(key).orElseThrow(() -> new OracleException("replay cache miss for request " + key));
    }
}
