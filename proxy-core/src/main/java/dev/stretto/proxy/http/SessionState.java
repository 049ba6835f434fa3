package dev.stretto.proxy.http;

/**
 * What the server's answers established for the session: the {@code Mcp-Session-Id} it
 * assigned, the protocol version the initialize result agreed, and whether the server has
 * ended the session (a 404 on its id). Written by whichever exchange learns it, read by all.
 */
final class SessionState {

    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean ended;

    String sessionId() {
        return sessionId;
    }

    void sessionId(String id) {
        this.sessionId = id;
    }

    String protocolVersion() {
        return protocolVersion;
    }

    void protocolVersion(String version) {
        this.protocolVersion = version;
    }

    boolean ended() {
        return ended;
    }

    /** Marks the session ended; true only for the call that ended it. */
    synchronized boolean end() {
        if (ended) {
            return false;
        }
        ended = true;
        return true;
    }

    /** Session ids may only hold visible ASCII (MCP transports, session management). */
    static boolean isValidSessionId(String id) {
        return isValidHeaderValue(id);
    }

    /**
     * True for a value the session may echo in a header: visible ASCII only, as the transport
     * demands of session ids and as every protocol version is spelled.
     */
    static boolean isValidHeaderValue(String value) {
        return value != null && !value.isEmpty() && value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    @Override
    public String toString() {
        // The session id is a bearer of the session; keep it out of any text.
        return "SessionState[session=" + (sessionId == null ? "none" : "set") + ", version=" + protocolVersion
                + ", ended=" + ended + "]";
    }
}
