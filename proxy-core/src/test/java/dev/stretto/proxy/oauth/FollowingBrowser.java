package dev.stretto.proxy.oauth;

import dev.stretto.proxy.BrowserOpener;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tests' browser: it follows the redirects of the authorization URL to the proxy's
 * callback, as a person's browser would once they approved. It can first send a forged
 * callback (the right port, a wrong state, a code of its own), and can open nothing at all.
 */
public final class FollowingBrowser implements BrowserOpener {

    public enum Mode { FOLLOW, FORGE_FIRST, NOTHING }

    private final Mode mode;
    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
    private final HttpClient noRedirects = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    public final AtomicInteger opened = new AtomicInteger();
    /** The statuses of the pages the browser ended on: the forged callback's, then the real one's. */
    public final List<Integer> statuses = new CopyOnWriteArrayList<>();

    public FollowingBrowser(Mode mode) {
        this.mode = mode;
    }

    @Override
    public void open(URI url) throws IOException {
        opened.incrementAndGet();
        if (mode == Mode.NOTHING) {
            return;
        }
        try {
            if (mode == Mode.FORGE_FIRST) {
                HttpResponse<Void> redirect = noRedirects.send(HttpRequest.newBuilder(url).build(),
                        HttpResponse.BodyHandlers.discarding());
                URI callback = URI.create(redirect.headers().firstValue("Location").orElseThrow());
                URI forged = URI.create(callback.getScheme() + "://" + callback.getAuthority() + callback.getPath()
                        + "?code=attacker-code&state=not-the-state");
                statuses.add(client.send(HttpRequest.newBuilder(forged).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode());
            }
            statuses.add(client.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
