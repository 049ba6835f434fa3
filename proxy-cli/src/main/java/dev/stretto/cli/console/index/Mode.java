package dev.stretto.cli.console.index;

/**
 * What a session's log shows the proxy did besides forwarding. A log does not say which
 * options the proxy ran with, so each mode is read from what it leaves behind.
 */
public enum Mode {
    /** The proxy only forwarded and recorded: none of the marks below. */
    PASSIVE("passive", "recorded only: the proxy forwarded every line and wrote the log"),
    /** The conversation was read from --context (context lines in the log). */
    CONTEXT("context", "active: the conversation was read from --context"),
    /** The policy guards refused a call. */
    GUARDS("guards", "active with guards: the policy check refused a call"),
    /** stretto_commit was offered or called. */
    COMMIT("commit", "active with --commit: stretto_commit was offered or called"),
    /** A flow was served: it looked things up for the agent. */
    FLOW("flow", "a flow was served (--flow): its runs are in the flow log, its lookups in the session"),
    /** A flow was served in shadow: it decided, and looked nothing up. */
    SHADOW("shadow", "a flow was served in shadow (--flow-shadow): it decided and logged, and looked nothing up"),
    /** The confirmation judge judged writes. */
    JUDGE("judge", "the confirmation judge judged the writes (--confirm-judge)"),
    /** The log could not be read. */
    UNREADABLE("unreadable", "the log could not be read");

    private final String word;
    private final String meaning;

    Mode(String word, String meaning) {
        this.word = word;
        this.meaning = meaning;
    }

    /** {@return the word the console shows and its URLs use} */
    public String word() {
        return word;
    }

    /** {@return what the mode means, in a sentence} */
    public String meaning() {
        return meaning;
    }

    /**
     * The mode a word names.
     *
     * @param word a {@link #word()}
     * @return the mode, or null for none
     */
    public static Mode ofWord(String word) {
        for (Mode m : values()) {
            if (m.word.equals(word)) {
                return m;
            }
        }
        return null;
    }
}
