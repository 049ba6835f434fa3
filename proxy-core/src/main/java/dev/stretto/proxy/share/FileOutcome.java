package dev.stretto.proxy.share;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/** What {@link ShareCopy} did with one file it was given or found. */
public sealed interface FileOutcome {

    /** {@return the file it was about} */
    Path source();

    /**
     * A file redacted (and written, unless it was a dry run).
     *
     * @param source   the file read
     * @param target   where its copy goes
     * @param replaced how many values of each kind it had replaced
     * @param tornLine the number of a torn last line that was left out (the proxy stopped while
     *                 writing it), or 0
     */
    record Redacted(Path source, Path target, Map<ValueKind, Integer> replaced, int tornLine) implements FileOutcome {
        /**
         * Checks the outcome.
         *
         * @throws NullPointerException when a part is null
         */
        public Redacted {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            replaced = Map.copyOf(replaced);
        }

        /** {@return how many values were replaced, of every kind} */
        public int total() {
            return replaced.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /**
     * A file not copied.
     *
     * @param source the file
     * @param reason why, as a person reads it
     * @param failed whether it should have been copied and could not be (a log that cannot be
     *               read, a copy that exists already), rather than a file that is not a log
     */
    record Skipped(Path source, String reason, boolean failed) implements FileOutcome {
        /**
         * Checks the outcome.
         *
         * @throws NullPointerException when a part is null
         */
        public Skipped {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
