package dev.stretto.proxy.guard;

import dev.stretto.trace.log.JsonText;
import java.util.Objects;

/**
 * What one rule says about one call: it passes, it fails (and, if the rule is enforced, the
 * call is refused), or the session has not shown the facts the rule needs, which never
 * refuses.
 */
public sealed interface Verdict {

    /** The call keeps the rule. */
    record Pass() implements Verdict {
    }

    /**
     * The call breaks the rule.
     *
     * @param reason why, as the refusal message quotes it
     */
    record Fail(String reason) implements Verdict {
        public Fail {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The rule cannot tell: the facts it needs have not been seen in the session.
     *
     * @param reason which facts are missing
     */
    record Unknown(String reason) implements Verdict {
        public Unknown {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** A pass. */
    static Verdict pass() {
        return new Pass();
    }

    /** A failure for {@code reason}. */
    static Verdict fail(String reason) {
        return new Fail(reason);
    }

    /** An unknown for {@code reason}. */
    static Verdict unknown(String reason) {
        return new Unknown(reason);
    }

    /** {@code pass}, {@code fail} or {@code unknown}. */
    default String word() {
        // instanceof, not a pattern switch: its first bootstrap would hold up the first call checked.
        return this instanceof Pass ? "pass" : this instanceof Fail ? "fail" : "unknown";
    }

    /** The reason of a failure or an unknown; null for a pass. */
    default String reason() {
        return null;
    }

    /**
     * The verdict as {@code stretto guards --json} prints it, the reference's form:
     * {@code {"verdict":"pass"}}, {@code {"verdict":"fail","reason":"..."}} or
     * {@code {"verdict":"unknown","reason":"..."}}.
     */
    default String toJson() {
        StringBuilder out = new StringBuilder("{\"verdict\":\"").append(word()).append('"');
        if (reason() != null) {
            out.append(",\"reason\":");
            JsonText.appendQuoted(out, reason());
        }
        return out.append('}').toString();
    }
}
