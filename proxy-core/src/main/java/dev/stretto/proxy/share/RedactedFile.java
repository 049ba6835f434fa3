package dev.stretto.proxy.share;

import java.util.Map;
import java.util.Objects;

/**
 * One file as a redaction wrote it again.
 *
 * @param original the file as it was given
 * @param redacted the same kind of file with every personal value replaced (its name moved
 *                 with the start time when that is shifted)
 * @param replaced how many values of each kind were replaced in it
 */
public record RedactedFile(ShareFile original, ShareFile redacted, Map<ValueKind, Integer> replaced) {

    /**
     * Checks the file.
     *
     * @throws NullPointerException when a part is null
     */
    public RedactedFile {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(redacted, "redacted");
        replaced = Map.copyOf(replaced);
    }

    /** {@return how many values were replaced in the file, of every kind} */
    public int total() {
        return replaced.values().stream().mapToInt(Integer::intValue).sum();
    }
}
