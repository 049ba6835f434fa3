package dev.stretto.proxy;

import java.util.Locale;
import java.util.Optional;

/**
 * Who answers the System-One questions of a flow's arbiter and of the confirmation judge
 * ({@code --oracle jev|replay|mock}).
 */
public enum OracleMode {
    /** The answer cache, else the System-One service, whose answer is then cached. */
    JEV,
    /** The answer cache only; a question it does not hold has no answer. */
    REPLAY,
    /** Fixed answers, without the network or a cache, to try things out. */
    MOCK;

    /**
     * The mode's name on the command line.
     *
     * @return {@code jev}, {@code replay} or {@code mock}
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode of a name on the command line.
     *
     * @param name {@code jev}, {@code replay} or {@code mock}
     * @return the mode, or empty for any other name
     */
    public static Optional<OracleMode> named(String name) {
        for (OracleMode m : values()) {
            if (m.wireName().equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
