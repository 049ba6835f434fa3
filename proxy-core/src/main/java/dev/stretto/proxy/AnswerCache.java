package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The System-One oracle's answer cache ({@code --oracle-cache DIR}) as JSON lines, so that
 * answers move between machines and caches ({@code stretto export-answers}, {@code
 * import-answers}): one line {@code {"key":<request key>,"response":<the answer>}} per answer,
 * sorted by key, the format of the reference implementation's export.
 *
 * <p>A key is the SHA-256 of the request, which the cache does not keep; so an import can check
 * that each key is a well-formed key and each response a well-formed answer, not that they
 * belong together. Several proxies may share a cache: each answer is written in one atomic step.
 */
public final class AnswerCache {

    private final OracleCache cache;

    private AnswerCache(Path directory) {
        this.cache = new OracleCache(directory);
    }

    /**
     * The cache in a directory.
     *
     * @param directory the cache directory; it is made when the first answer is added
     * @return the cache
     */
    public static AnswerCache at(Path directory) {
        return new AnswerCache(Objects.requireNonNull(directory, "directory"));
    }

    /**
     * The cache's directory.
     *
     * @return the directory, as given
     */
    public Path directory() {
        return cache.directory();
    }

    /**
     * One answer of an export.
     *
     * @param key      the request's key: 64 lowercase hex digits
     * @param response the answer, as compact JSON
     */
    public record Answer(String key, String response) {

        /**
         * Checks the key.
         *
         * @throws IllegalArgumentException when it is not a cache key
         * @throws NullPointerException     when the response is null
         */
        public Answer {
            if (!OracleCache.isKey(key)) {
                throw new IllegalArgumentException("not a cache key (64 lowercase hex digits): " + key);
            }
            Objects.requireNonNull(response, "response");
        }
    }

    /**
     * What an export wrote.
     *
     * @param exported   how many answers it wrote
     * @param unreadable why each entry left out could not be read, one line each
     */
    public record Export(int exported, List<String> unreadable) {

        /** Copies the list. */
        public Export {
            unreadable = List.copyOf(unreadable);
        }
    }

    /**
     * What an import stored.
     *
     * @param stored how many answers were added
     * @param kept   how many the cache already held, and kept
     */
    public record Import(int stored, int kept) {
    }

    /**
     * Writes every answer of the cache, one JSON line each, sorted by key. Only the cache's own
     * files are read ({@code <2 hex digits>/<key>.json}); an entry that cannot be read is left
     * out and said in the result.
     *
     * @param out where the lines go; flushed, not closed
     * @return how many were written, and what was left out
     * @throws IOException when the cache cannot be listed or {@code out} cannot be written
     */
    public Export exportTo(Writer out) throws IOException {
        int exported = 0;
        List<String> unreadable = new ArrayList<>();
        for (String key : cache.keys()) {
            Optional<Response> response;
            try {
                response = cache.find(key);
            } catch (OracleException e) {
                unreadable.add(e.getMessage());
                continue;
            }
            if (response.isPresent()) { // else pruned since it was listed
                out.write("{\"key\":" + JsonText.quote(key) + ",\"response\":" + response.get().toJson() + "}\n");
                exported++;
            }
        }
        out.flush();
        return new Export(exported, unreadable);
    }

    /**
     * Reads an export, checking every line before anything is stored: each is an object with a
     * key and a well-formed response; blank lines are skipped.
     *
     * @param in     the export's bytes, UTF-8; not closed
     * @param source how messages name the input (a file, {@code <stdin>})
     * @return the answers, in order
     * @throws IOException naming {@code source:line} for the first line that is not an answer,
     *                     or when {@code in} cannot be read
     */
    public static List<Answer> readExport(InputStream in, String source) throws IOException {
        var utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, utf8));
        List<Answer> answers = new ArrayList<>();
        int lineNumber = 0;
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (!line.isBlank()) {
                    answers.add(answer(line, source + ":" + lineNumber));
                }
            }
        } catch (CharacterCodingException e) {
            throw new IOException(source + ":" + (lineNumber + 1) + ": not UTF-8 text", e);
        }
        return answers;
    }

    private static Answer answer(String line, String where) throws IOException {
        JsonNode node;
        try {
            node = CanonicalJson.parse(line);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": not JSON: " + e.getMessage());
        }
        if (!node.isObject()) {
            throw new IOException(where + ": not an object with \"key\" and \"response\"");
        }
        JsonNode key = node.get("key");
        if (key == null || !key.isTextual() || !OracleCache.isKey(key.textValue())) {
            throw new IOException(where + ": \"key\" is not a cache key (64 lowercase hex digits)");
        }
        JsonNode response = node.get("response");
        if (response == null || !response.isObject()) {
            throw new IOException(where + ": no \"response\" object");
        }
        try {
            return new Answer(key.textValue(), Response.parse(CanonicalJson.write(response)).toJson());
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": the response is not an answer: " + e.getMessage());
        }
    }

    /**
     * Adds answers to the cache. An answer the cache already holds for a key is kept, as a proxy
     * never asks the same question twice, unless it cannot be read: then the added one replaces
     * it.
     *
     * @param answers the answers
     * @return how many were stored and kept
     * @throws IllegalArgumentException when a response is not an answer
     * @throws IOException              when an answer cannot be written
     */
    public Import add(List<Answer> answers) throws IOException {
        int stored = 0;
        int kept = 0;
        for (Answer a : answers) {
            Response response = Response.parse(a.response());
            boolean present;
            try {
                present = cache.find(a.key()).isPresent();
            } catch (OracleException unreadable) {
                present = false;
            }
            if (present) {
                kept++;
                continue;
            }
            try {
                cache.put(a.key(), response);
            } catch (OracleException e) {
                throw new IOException(e.getMessage(), e);
            }
            stored++;
        }
        return new Import(stored, kept);
    }
}
