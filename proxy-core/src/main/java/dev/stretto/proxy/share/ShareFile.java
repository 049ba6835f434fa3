package dev.stretto.proxy.share;

import dev.stretto.trace.log.SessionLog;
import java.util.List;
import java.util.Objects;

/**
 * One file of a run of redaction, by kind: a session log, or one of the logs the proxy writes
 * beside it. The name is the file's name; a redacted copy keeps it (unless the start time is
 * shifted, which moves the session id in it).
 */
public sealed interface ShareFile {

    /** {@return the file's name, {@code <session>.jsonl} and the like} */
    String name();

    /**
     * A session log.
     *
     * @param name the file's name
     * @param log  the log
     */
    record Session(String name, SessionLog log) implements ShareFile {
        /**
         * Checks the file.
         *
         * @throws NullPointerException when a part is null
         */
        public Session {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(log, "log");
        }
    }

    /**
     * A flow log ({@code <session>.flow.jsonl}): the decisions and runs of a served flow.
     *
     * @param name  the file's name
     * @param lines its lines, each one JSON object, blank lines and a torn last line left out
     */
    record FlowLog(String name, List<String> lines) implements ShareFile {
        /**
         * Checks the file.
         *
         * @throws NullPointerException when a part is null
         */
        public FlowLog {
            Objects.requireNonNull(name, "name");
            lines = List.copyOf(lines);
        }
    }

    /**
     * A confirmation judge's log ({@code <session>.confirm.jsonl}).
     *
     * @param name  the file's name
     * @param lines its lines, each one JSON object, blank lines and a torn last line left out
     */
    record ConfirmLog(String name, List<String> lines) implements ShareFile {
        /**
         * Checks the file.
         *
         * @throws NullPointerException when a part is null
         */
        public ConfirmLog {
            Objects.requireNonNull(name, "name");
            lines = List.copyOf(lines);
        }
    }
}
