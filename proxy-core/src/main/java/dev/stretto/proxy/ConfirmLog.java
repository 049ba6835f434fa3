package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.io.JsonLines;
import dev.stretto.trace.log.LogFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A confirm log ({@code <session>.confirm.jsonl}, which a session with the confirmation judge
 * writes; {@code stretto show} places its judgments on the session's calls) read back: one
 * judgment per line, as the proxy writes them (and the reference did). Blank lines are skipped; a
 * last line without a newline that does not parse is dropped (the proxy stopped while writing
 * it); any other bad line is an error naming the file and line. Keys this reader does not know
 * are ignored.
 *
 * @param judgments the judgments, in log order
 */
public record ConfirmLog(List<Judged> judgments) {

    private static final String WHAT = "confirm log";

    /**
     * Copies the judgments.
     *
     * @throws NullPointerException when a judgment is null
     */
    public ConfirmLog {
        judgments = List.copyOf(judgments);
    }

    /**
     * One judgment as logged.
     *
     * @param tool          the tool called
     * @param arguments     its arguments
     * @param wordList      whether the domain's {@code .confirmed} rule (the word list) passed
     * @param enforced      whether the judge was enforcing
     * @param proposalCheck the flagged values
     * @param secondShadow  whether the second answer was only logged
     * @param key           the {@code confirmed} request's cache key
     * @param secondKey     the second request's key, or null
     * @param pYes          the answer to {@code confirmed}, or null
     * @param pSecond       the answer to the second question, or null
     * @param skipped       why nothing was asked, or null
     * @param error         why an answer is missing, or null
     * @param fails         whether a counting answer fell below the threshold
     * @param unknown       whether nothing failed but a counting answer is missing
     * @param ms            how long the call waited for the judgment
     */
    public record Judged(String tool, JsonNode arguments, boolean wordList, boolean enforced,
                         List<Flag> proposalCheck, boolean secondShadow, String key, String secondKey,
                         Double pYes, Double pSecond, String skipped, String error, boolean fails, boolean unknown,
                         long ms) {

        /**
         * Copies the arguments and flags.
         *
         * @throws NullPointerException if the tool or arguments are null
         */
        public Judged {
            Objects.requireNonNull(tool, "tool");
            arguments = arguments.deepCopy();
            proposalCheck = List.copyOf(proposalCheck);
        }

        /** {@return a copy of the arguments, as JSON trees are mutable} */
        @Override
        public JsonNode arguments() {
            return arguments.deepCopy();
        }

        /**
         * Whether the call was refused.
         *
         * @return true for a failing judgment, enforced
         */
        public boolean refused() {
            return fails && enforced;
        }

        /**
         * The judgment's verdict, as {@code stretto show} marks it.
         *
         * @return refused, logged only (a no, not enforced), skipped (nothing asked), no answer,
         *         or agreed
         */
        public Verdict verdict() {
            if (refused()) {
                return Verdict.REFUSED;
            }
            if (fails) {
                return Verdict.LOGGED_ONLY;
            }
            if (skipped != null) {
                return Verdict.SKIPPED;
            }
            return unknown ? Verdict.NO_ANSWER : Verdict.AGREED;
        }
    }

    /** What a judgment came to. */
    public enum Verdict {
        /** The model said the customer agreed. */
        AGREED,
        /** The model said no, and the judge enforced it: the write was refused. */
        REFUSED,
        /** The model said no, and the judge only logged it. */
        LOGGED_ONLY,
        /** Nothing was asked (the question budget was spent, ...). */
        SKIPPED,
        /** No answer came (no key, a replay miss, an error). */
        NO_ANSWER
    }

    /**
     * A value the proposal check flagged: taken from a record the customer did not choose.
     *
     * @param argument the write's argument
     * @param value    its value
     */
    public record Flag(String argument, JsonNode value) {

        /**
         * Copies the value.
         *
         * @throws NullPointerException if either is null
         */
        public Flag {
            Objects.requireNonNull(argument, "argument");
            value = value.deepCopy();
        }

        /** {@return a copy of the value, as JSON trees are mutable} */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }
    }

    /**
     * The confirm log that belongs next to the session log {@code sessionLog}: its name with
     * {@code .jsonl} replaced by {@code .confirm.jsonl} ({@code <session>.confirm.jsonl}),
     * where the proxy writes it by default and {@code stretto show} looks for it.
     *
     * @param sessionLog the session log
     * @return the confirm log's path beside it (which may not exist)
     */
    public static Path besideSessionLog(Path sessionLog) {
        return JsonLines.besideSessionLog(sessionLog, ".confirm.jsonl");
    }

    /**
     * Reads a confirm log file.
     *
     * @param file the file
     * @return its judgments
     * @throws LogFormatException when a line is not a confirm log line (the message names the
     *                            file and line)
     * @throws IOException        when it cannot be read
     */
    public static ConfirmLog read(Path file) throws IOException {
        return parse(JsonLines.text(file, "confirm log"), file.toString());
    }

    /**
     * Parses a confirm log's text.
     *
     * @param text the log's text
     * @param name the file's name, for messages
     * @return its judgments
     * @throws LogFormatException for a line that is not a confirm log line
     */
    public static ConfirmLog parse(String text, String name) throws LogFormatException {
        List<Judged> judgments = new ArrayList<>();
        JsonLines.read(text, name, node -> judgments.add(judged(node)));
        return new ConfirmLog(judgments);
    }

    private static Judged judged(JsonNode n) {
        JsonNode arguments = JsonLines.required(n, "arguments", WHAT);
        List<Flag> flags = new ArrayList<>();
        JsonNode check = n.get("proposal_check");
        if (check != null && !check.isNull()) {
            if (!check.isArray()) {
                throw new IllegalArgumentException("\"proposal_check\" must be a list");
            }
            for (JsonNode f : check) {
                if (!f.isObject() || !f.path("argument").isTextual() || !f.has("value")) {
                    throw new IllegalArgumentException("each \"proposal_check\" entry must be {\"argument\": name,"
                            + " \"value\": value}");
                }
                flags.add(new Flag(f.get("argument").textValue(), f.get("value")));
            }
        }
        JsonNode ms = n.get("ms");
        return new Judged(JsonLines.string(n, "tool", WHAT, false), arguments, bool(n, "word_list"), bool(n, "enforced"),
                flags, bool(n, "second_shadow"), JsonLines.string(n, "key", WHAT, true),
                JsonLines.string(n, "second_key", WHAT, true), JsonLines.number(n, "p_yes"), JsonLines.number(n, "p_second"),
                JsonLines.string(n, "skipped", WHAT, true), JsonLines.string(n, "error", WHAT, true), bool(n, "fails"),
                bool(n, "unknown"), ms != null && ms.canConvertToLong() ? ms.longValue() : 0);
    }

    private static boolean bool(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("\"" + field + "\" must be true or false");
        }
        return v.booleanValue();
    }
}
