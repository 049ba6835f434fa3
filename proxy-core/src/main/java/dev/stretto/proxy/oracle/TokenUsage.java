package dev.stretto.proxy.oracle;

/**
 * What answering a request cost, as the service reports it; zeros when it does not say.
 *
 * @param inputTokens  tokens read
 * @param outputTokens tokens written
 */
public record TokenUsage(long inputTokens, long outputTokens) {

    /** Nothing reported. */
    public static final TokenUsage NONE = new TokenUsage(0, 0);

    /** @throws IllegalArgumentException if a count is negative */
    public TokenUsage {
        if (inputTokens < 0 || outputTokens < 0) {
            throw new IllegalArgumentException("token counts cannot be negative");
        }
    }
}
