package dev.stretto.proxy.flow;

import java.util.List;
import java.util.Objects;

/**
 * Where a flow came from, as its file records it.
 *
 * @param stretto        the version of the tool that wrote it
 * @param sources        labels of what it was learned from: the agents' models, and for a
 *                       served foreign arbiter {@code "arbiter (<domain>): <source>"} or
 *                       {@code "arbiter: <source>"}
 * @param habitEpisodes  the successful episodes the habit learned from
 * @param arbiterCases   the held-out decisions the arbiter was fitted on, 0 without one
 * @param compiledUnixMs when it was written, in milliseconds since the epoch
 * @param conventions    the telemetry conventions the sessions were read with (flows learned
 *                       from OpenTelemetry spans), or null
 */
public record Provenance(String stretto, List<String> sources, long habitEpisodes, long arbiterCases,
                         long compiledUnixMs, String conventions) {

    /**
     * Copies the sources.
     *
     * @throws NullPointerException when the version, the sources or one of them is null
     */
    public Provenance {
        Objects.requireNonNull(stretto, "stretto");
        sources = List.copyOf(sources);
    }
}
