package dev.stretto.proxy.flow;

/** How a flow weighs the options at a site ({@code --flow-decider}). */
public enum DeciderKind {
    /** The habit prior: the habit's probability of each lookup, handing back the rest. */
    HABIT("habit"),
    /** The reach counts: the chance the agent makes each lookup before its next write. */
    REACH("reach"),
    /** The arbiter: the System-One model's answers, judged by the fitted folds. */
    ARBITER("arbiter");

    private final String wireName;

    DeciderKind(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The name in options and logs.
     *
     * @return {@code habit}, {@code reach} or {@code arbiter}
     */
    public String wireName() {
        return wireName;
    }

    /**
     * Parses a {@code --flow-decider} value.
     *
     * @param name {@code habit}, {@code reach} or {@code arbiter}
     * @return the decider of that name
     * @throws IllegalArgumentException for any other name, saying which are known
     */
    public static DeciderKind ofWireName(String name) {
        for (DeciderKind k : values()) {
            if (k.wireName.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown decider '" + name + "' (arbiter, habit or reach)");
    }
}
