package dev.stretto.proxy.listen;

/** A request the listener turns down: the HTTP status, and the message its JSON-RPC error carries. */
final class Refused extends Exception {
    final int status;

    Refused(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }
}
