package dev.stretto.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code stretto-proxy --listen}'s own options, as parsed.
 *
 * @param host        the address to bind, as given ({@code 127.0.0.1} when only a port was)
 * @param port        the port, 0 for a free one
 * @param tokenFile   {@code --listen-token-file FILE}, or null for no token
 * @param idle        {@code --listen-idle MINUTES}; zero keeps idle sessions
 * @param origins     every {@code --listen-origin}, normalised
 * @param maxSessions {@code --listen-max-sessions N}
 */
record ListenOptions(String host, int port, Path tokenFile, Duration idle, List<String> origins, int maxSessions) {

    ListenOptions {
        origins = List.copyOf(origins);
    }
}
