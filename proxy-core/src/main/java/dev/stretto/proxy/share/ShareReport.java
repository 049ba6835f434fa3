package dev.stretto.proxy.share;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link ShareCopy} did.
 *
 * @param outcomes      each file, in the order met: redacted or skipped with the reason
 * @param values        how many distinct personal values were found in the files redacted
 * @param secondChoices how many of them did not get their first pseudonym ({@link RedactionResult#secondChoices()})
 * @param dryRun        whether nothing was written
 */
public record ShareReport(List<FileOutcome> outcomes, int values, int secondChoices, boolean dryRun) {

    /**
     * Checks the report.
     *
     * @throws NullPointerException when {@code outcomes} is null
     */
    public ShareReport {
        outcomes = List.copyOf(outcomes);
    }

    /** {@return whether some file that should have been copied was not} */
    public boolean failed() {
        return outcomes.stream().anyMatch(o -> o instanceof FileOutcome.Skipped s && s.failed());
    }

    /** {@return the values replaced in all files, by kind} */
    public Map<ValueKind, Integer> replaced() {
        Map<ValueKind, Integer> all = new EnumMap<>(ValueKind.class);
        for (FileOutcome o : outcomes) {
            if (o instanceof FileOutcome.Redacted r) {
                r.replaced().forEach((k, n) -> all.merge(k, n, Integer::sum));
            }
        }
        return all;
    }
}
