package dev.stretto.proxy.oracle;

import java.util.Objects;
import java.util.Optional;
import dev.stretto.proxy.logging.Logger;

/**
 * {@code --oracle jev}: a cached answer when there is one, else the service's, which is then
 * cached. A cache entry that cannot be read is asked again (and overwritten); an answer that
 * cannot be cached is still returned, with a warning, since the question has been paid for.
 *
 * @param cache  the answers
 * @param client the service
 */
public record JevOracle(OracleCache cache, SystemOneClient client) implements Oracle {

    /** @throws NullPointerException if either is null */
    public JevOracle {
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(client, "client");
    }

    @Override
    public Response ask(Request request) throws InterruptedException {
        String key = request.key();
        try {
            Optional<Response> cached = cache.find(key);
            if (cached.isPresent()) {
                return cached.get();
            }
        } catch (OracleException unreadable) {
            Logger.warn("{}; asking System-One again", unreadable.getMessage());
        }
        Response answer = client.ask(request);
        try {
            cache.put(key, answer);
        } catch (OracleException e) {
            Logger.warn("{}; the answer is used but not kept", e.getMessage());
        }
        return answer;
    }

    @Override
    public void close() {
        client.close();
    }
}
