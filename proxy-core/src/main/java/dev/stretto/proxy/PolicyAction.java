package dev.stretto.proxy;

import java.util.Locale;
import java.util.Optional;

/**
 * What a policy does with a tool call (or a listing, or a request of the server's). When
 * several rules match a call they all apply and the strictest wins: {@link #HIDE} and {@link
 * #DENY} over {@link #ASK}, over {@link #LOG}, over {@link #ALLOW}; no rule matching is {@link
 * #ALLOW}.
 */
public enum PolicyAction {

    /** The call goes to the server; nothing is logged for it. */
    ALLOW,

    /** The call goes to the server, and the verdict is logged. */
    LOG,

    /**
     * The call waits until a person approves it ({@code stretto approve ID}) or denies it
     * ({@code stretto deny ID}), or until the policy's timeout, which denies it.
     */
    ASK,

    /** The call is refused before the server sees it. */
    DENY,

    /** The tool is left out of {@code tools/list} answers, and a call of it is refused. */
    HIDE;

    /**
     * The action's name in a policy file and in the log.
     *
     * @return {@code allow}, {@code log}, {@code ask}, {@code deny} or {@code hide}
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The action a policy file names.
     *
     * @param name {@code allow}, {@code log}, {@code ask}, {@code deny} or {@code hide}
     * @return the action, or empty for another name
     */
    public static Optional<PolicyAction> named(String name) {
        for (PolicyAction a : values()) {
            if (a.wireName().equals(name)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether this action is stricter than {@code other}: the one that wins when both apply.
     * {@link #HIDE} and {@link #DENY} are as strict as each other.
     *
     * @param other the other action
     * @return true when this one wins
     */
    public boolean stricterThan(PolicyAction other) {
        return rank() > other.rank();
    }

    /**
     * Whether the call is refused, never reaching the server.
     *
     * @return true for {@link #DENY} and {@link #HIDE}
     */
    public boolean refuses() {
        return this == DENY || this == HIDE;
    }

    private int rank() {
        return this == HIDE ? DENY.ordinal() : ordinal();
    }
}
