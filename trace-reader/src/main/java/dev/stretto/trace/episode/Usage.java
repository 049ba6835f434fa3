package dev.stretto.trace.episode;

/**
 * Tokens and cost of one assistant turn, when the source knows them (a session log never
 * does; benchmark trajectories may).
 *
 * @param promptTokens     tokens read by the model
 * @param completionTokens tokens written by the model
 * @param cost             the turn's cost in dollars
 */
public record Usage(long promptTokens, long completionTokens, double cost) {
}
