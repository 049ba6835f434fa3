package dev.stretto.proxy.flow.learn.habit;

/**
 * One episode as the habit sees it: each step's symbol and action id, and the episode's
 * weight in the counts.
 *
 * @param symbols one symbol per step: {@code (action * 4 + outcome) * 4096 + feature}
 * @param actions one vocab id per step
 * @param weight  1, or less for older sessions under {@code --half-life}
 */
public record EncodedEpisode(long[] symbols, int[] actions, double weight) {

    public EncodedEpisode {
        if (symbols.length != actions.length) {
            throw new IllegalArgumentException("one symbol per action: " + symbols.length + " vs " + actions.length);
        }
    }

    /** The number of steps. */
    public int length() {
        return actions.length;
    }
}
