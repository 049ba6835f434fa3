package dev.stretto.proxy;

import dev.stretto.proxy.oauth.CommandOpener;
import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * How the person signs in to an OAuth server: something that shows them the authorization URL,
 * usually by opening it in a browser. Whatever the opener does, the proxy also says the URL in
 * its messages (at warn level), so a person without a browser can open it by hand. The browser
 * is sent back to the proxy's loopback callback, which ends the wait.
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
     * An opener that runs {@code command} with the URL as its last argument, without a shell,
     * its output discarded (never on the proxy's stdout), not waiting for it to end.
     *
     * @param command the program and its first arguments; not empty
     * @return the opener
     * @throws IllegalArgumentException when the command is empty
     */
    static BrowserOpener command(List<String> command) {
        return new CommandOpener(command);
    }

    /**
     * The machine's own way to open a URL, found when it is needed: {@code $BROWSER} (as the
     * environment the proxy runs in gives it, split at spaces), else {@code open} on macOS, else
     * {@code xdg-open} where it is on the {@code PATH}; nothing (the URL only in the messages)
     * where none is found.
     *
     * @return the opener
     */
    static BrowserOpener system() {
        return CommandOpener.system();
    }

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
