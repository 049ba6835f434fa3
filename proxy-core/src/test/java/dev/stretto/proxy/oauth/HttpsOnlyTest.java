package dev.stretto.proxy.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Which URLs a sign-in may reach ({@link HttpsOnly}): generated over the shapes by which a URL
 * can look local or secure without being so. Each part of a generated URL carries whether it
 * allows plain http (a loopback host spelled as the rule has it, no user info); a URL is
 * allowed when its scheme is https, or http with every part allowing it.
 */
class HttpsOnlyTest {

    /** A piece of a URL, and whether it keeps a plain http URL on loopback. */
    record Part(String text, boolean local) {
    }

    private static final List<Part> HOSTS = List.of(
            new Part("127.0.0.1", true), new Part("localhost", true), new Part("LOCALHOST", true),
            new Part("LocalHost", true), new Part("[::1]", true),
            // look local, are not (or are not spelled as the rule takes them)
            new Part("127.0.0.1.evil.com", false), new Part("localhost.evil", false),
            new Part("localhost.evil.com", false), new Part("evil-localhost", false), new Part("evil.localhost", false),
            new Part("localhost.", false), new Part("127.1", false), new Part("127.0.0.2", false),
            new Part("0.0.0.0", false), new Part("2130706433", false), new Part("0x7f000001", false),
            new Part("017700000001", false), new Part("[::2]", false), new Part("[::ffff:127.0.0.1]", false),
            new Part("[0:0:0:0:0:0:0:1]", false), new Part("example.com", false),
            new Part("10.0.0.1", false), new Part("auth.example.com", false), new Part("xn--localhost-9za", false));

    private static final List<Part> USER_INFOS = List.of(
            new Part("", true), new Part("user@", false), new Part("user:pass@", false), new Part("localhost@", false),
            new Part("127.0.0.1@", false), new Part("evil.com@", false), new Part("127.0.0.1:80@", false));

    private static final List<Part> PORTS = List.of(new Part("", true), new Part(":8080", true), new Part(":443", true),
            new Part(":1", true), new Part(":65535", true));

    private static final List<String> PATHS = List.of("", "/", "/token", "/.well-known/oauth-authorization-server",
            "/authorize?x=1", "/register#frag", "/@evil.com", "/?next=https://evil.com", "/%2e%2e/");

    @Test
    void plainHttpIsTakenOnlyOnLoopbackHostsWithoutUserInfo() throws URISyntaxException {
        Random random = new Random(5);
        int allowed = 0;
        int refused = 0;
        for (int i = 0; i < 5000; i++) {
            String scheme = scheme(random);
            Part user = USER_INFOS.get(random.nextInt(USER_INFOS.size()));
            Part host = HOSTS.get(random.nextInt(HOSTS.size()));
            Part port = PORTS.get(random.nextInt(PORTS.size()));
            String path = PATHS.get(random.nextInt(PATHS.size()));
            String text = scheme + "://" + user.text() + host.text() + port.text() + path;
            URI url = new URI(text);
            boolean expected = switch (scheme.toLowerCase(Locale.ROOT)) {
                case "https" -> url.getHost() != null;
                case "http" -> user.local() && host.local() && port.local();
                default -> false;
            };
            assertEquals(expected, HttpsOnly.allowed(url), text);
            if (expected) {
                allowed++;
            } else {
                refused++;
            }
        }
        assertTrue(allowed > 500 && refused > 2500, allowed + " allowed, " + refused + " refused");
    }

    @Test
    void urlsWithoutAHostOrOfAnotherKindAreRefused() {
        for (String text : List.of("http:localhost", "http:/localhost/token", "http:///token", "https:///token",
                "//localhost/token", "/token", "localhost/token", "javascript:alert(1)", "file:///etc/passwd",
                "data:text/plain,x", "ftp://127.0.0.1/", "ws://localhost/", "wss://auth.example.com/",
                "http://local_host/", "HTTP://evil.com@LOCALHOST/", "hTTp://localhost.EVIL/")) {
            assertFalse(HttpsOnly.allowed(URI.create(text)), text);
        }
        for (String text : List.of("https://auth.example.com/token", "HTTPS://AUTH.EXAMPLE.COM/token",
                "http://127.0.0.1:9000/token", "HTTP://LOCALHOST/authorize", "http://[::1]:8443/register",
                "https://user@auth.example.com/")) {
            assertTrue(HttpsOnly.allowed(URI.create(text)), text);
        }
    }

    @Test
    void theRefusalNamesTheEndpointWithoutItsCredentials() {
        AuthorizationFailedException e = assertThrows(AuthorizationFailedException.class, () -> HttpsOnly.require(
                URI.create("http://admin:hunter2@auth.example.com/token?client_secret=s3cr3t&x=1"), "the token endpoint"));
        assertEquals("refusing to sign in: the token endpoint http://auth.example.com/token?client_secret=<redacted>&x=1"
                + " is not HTTPS, which the MCP authorization spec requires of authorization servers (plain http is"
                + " taken only on 127.0.0.1, [::1] and localhost)", e.getMessage());
        assertFalse(e.getMessage().contains("hunter2") || e.getMessage().contains("s3cr3t"));
    }

    /** A scheme: http or https in any case, or another one. */
    private static String scheme(Random random) {
        String base = List.of("http", "https", "http", "https", "ftp", "ws", "file").get(random.nextInt(7));
        StringBuilder s = new StringBuilder();
        for (char c : base.toCharArray()) {
            s.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
        }
        return s.toString();
    }
}
