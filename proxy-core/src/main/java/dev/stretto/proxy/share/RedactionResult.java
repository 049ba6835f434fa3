package dev.stretto.proxy.share;

import java.util.List;
import java.util.Map;

/**
 * What a run of redaction made.
 *
 * @param files         each file given, redacted, in the order given
 * @param values        how many distinct personal values were found
 * @param secondChoices how many of them did not get their first pseudonym (it was another's,
 *                      or a word the files already hold), and so may get another one in a run
 *                      over other files
 * @param replacements  every text that was replaced and what it became: kept in memory for the
 *                      caller (a test maps pseudonyms back with it), never written by redaction
 */
public record RedactionResult(List<RedactedFile> files, int values, int secondChoices, Map<String, String> replacements) {

    /**
     * Checks the result.
     *
     * @throws NullPointerException when a part is null
     */
    public RedactionResult {
        files = List.copyOf(files);
        replacements = Map.copyOf(replacements);
    }
}
