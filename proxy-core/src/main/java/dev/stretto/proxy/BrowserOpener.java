package dev.stretto.proxy;

import java.io.IOException;
import java.net.URI;

/**
 * How the person signs in to an OAuth server: something that shows them the authorization URL,
 * usually by opening it in a browser. Whatever the opener does, the proxy also says the URL in
 * its messages (a {@linkplain ProxyMessages#prompt prompt}, shown whatever the level), so a
 * person without a browser can open it by hand. The browser
 * is sent back to the proxy's loopback callback, which ends the wait.
 *
 * <p>The proxy's own openers run a command ({@link OAuthLogins#browserCommand}), or the
 * machine's way to open a URL (the settings' default, a null browser): {@code $BROWSER}, else
 * {@code open} on macOS, else {@code xdg-open}.
 *
 * <p>Tests and machines without a person use an opener that follows the redirects itself
 * (an authorization server that approves without asking sends its code straight to the
 * callback).
 */
@FunctionalInterface
public interface BrowserOpener {

    /**
     * Shows {@code authorizationUrl} to the person. Returns once it is shown (not once they have
     * signed in).
     *
     * @param authorizationUrl the URL to open
     * @throws IOException when it cannot be shown; the proxy goes on waiting for the callback,
     *                     as the URL is in its messages
     */
    void open(URI authorizationUrl) throws IOException;

    /**
     * An opener that opens nothing: the URL is only in the proxy's messages
     * ({@code --oauth-no-browser}).
     *
     * @return the opener
     */
    static BrowserOpener none() {
        return url -> { };
    }
}
