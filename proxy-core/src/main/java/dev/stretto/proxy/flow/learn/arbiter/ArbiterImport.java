package dev.stretto.proxy.flow.learn.arbiter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.arbiter.ArbiterScorer;
import dev.stretto.proxy.flow.file.ArbiterFiles;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code stretto learn --arbiter-from FILE} (stretto-learn 4.4): a habit-only flow given the
 * arbiter of an arbiter file or of another flow. From an arbiter file
 * ({@code stretto_arbiter}): its predicates, weighed predicates, model and cases, five copies
 * of its fitted fold, and each of its sources as {@code arbiter (<domain>): <source>}. From a
 * flow (which must have folds): its predicates, weighed predicates, folds, model, cases and
 * {@code every_read}, and each of its sources as {@code arbiter: <source>}. The sources are
 * added after the habit's own; the format version is the habit's.
 */
public final class ArbiterImport {

    private ArbiterImport() {
    }

    /**
     * {@code habit} with the arbiter of {@code file}.
     *
     * @throws IOException    when the file cannot be read or is neither an arbiter file nor a
     *                        flow (the message names the file)
     * @throws FlowException when the flow has no arbiter to take
     */
    public static Flow apply(Flow habit, Path file) throws IOException, FlowException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not an arbiter file or a flow: it is not UTF-8 text", e);
        }
        JsonNode json;
        try {
            json = CanonicalJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": not an arbiter file or a flow: it is not JSON (" + e.getMessage() + ")");
        }
        Provenance p = habit.provenance();
        List<String> sources = new ArrayList<>(p.sources());
        try {
            if (ArbiterFiles.isArbiter(json)) {
                ArbiterFiles.Arbiter a = ArbiterFiles.arbiter(json);
                a.sources().forEach(s -> sources.add("arbiter (" + a.domain() + "): " + s));
                return habit.withArbiter(provenance(p, sources, a.arbiterCases()), a.predicates(), a.weighed(),
                        Collections.nCopies(ArbiterScorer.FOLDS, a.fitted()), a.model(), habit.sites().everyRead());
            }
            Flow from = FlowFile.parse(text);
            if (!from.hasArbiter()) {
                throw new FlowException("the flow to take an arbiter from has none");
            }
            from.provenance().sources().forEach(s -> sources.add("arbiter: " + s));
            List<Fold> folds = from.folds();
            return habit.withArbiter(provenance(p, sources, from.provenance().arbiterCases()), from.predicates(),
                    from.weighed(), folds, from.model(), habit.sites().everyRead() || from.sites().everyRead());
        } catch (FlowFormatException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static Provenance provenance(Provenance p, List<String> sources, long cases) {
        return new Provenance(p.stretto(), sources, p.habitEpisodes(), cases, p.compiledUnixMs(), p.conventions());
    }
}
