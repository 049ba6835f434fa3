package dev.stretto.proxy.http;

import dev.stretto.proxy.redact.Secrets;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLException;

/** Plain words for why an HTTP exchange failed, safe to show (secrets scrubbed). */
final class Causes {

    private Causes() {
    }

    static String describe(Throwable failure, Secrets secrets) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpConnectTimeoutException) {
                return "timed out connecting";
            }
            if (t instanceof HttpTimeoutException) {
                return "no answer in time";
            }
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return "unknown host";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof SSLException) {
                return "TLS failure" + detail(t, secrets);
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return "connection refused";
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof EOFException) {
                return "connection closed";
            }
            if (t instanceof SocketException) {
                return "connection failed" + detail(t, secrets);
            }
        }
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return secrets.scrub(message);
    }

    private static String detail(Throwable t, Secrets secrets) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? "" : " (" + secrets.scrub(message) + ")";
    }
}
