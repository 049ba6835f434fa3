package dev.stretto.proxy.policy;

/**
 * What a policy does when the server changes a tool it listed before (a rug pull: its
 * description rewritten to carry instructions, its input schema widened): the tool's
 * fingerprint is taken when it is first listed, and each later listing is held against it.
 */
public enum Pinning {
    /** Nothing is pinned. */
    OFF,
    /** The change is logged; the changed tool is listed and called as the server has it now. */
    LOG,
    /** The changed tool is left out of the listing, and calls of it are refused. */
    DENY,
    /** The session ends, and the host never sees the changed listing. */
    END;

    /** Its name in a policy file. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
