package dev.stretto.proxy.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stretto.proxy.StoredLogin;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What servers and files hand the sign-in, in hostile shapes generated from a seed: challenges
 * that are not RFC 9110's, and login files cut, spliced and retyped. Each is read without a
 * hang or an exception other than the one the reader says, and a refusal never shows what the
 * file held.
 */
class HostileShapesTest {

    private static final String SECRET = "rt-SECRET-0123456789";

    /** Pieces of challenges: schemes, parameters, quotes, escapes, separators and junk. */
    private static final List<String> PIECES = List.of("Bearer", "bearer", "Basic", "DPoP", " ", "\t", ",", "=", "\"",
            "\\", "\\\"", "realm", "scope", "error", "resource_metadata", "insufficient_scope", "invalid_token",
            "http://127.0.0.1:1/.well-known/oauth-protected-resource", "https://", "://", "/", ":", "a b", "\u0000",
            "\u00e9", "\ud83d\ude00", "==", "token68+/=", "(", ")", ";", "\r\n");

    @Test
    void challengesOfEveryShapeAreReadWithoutAHangOrAnException() {
        Random random = new Random(21);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int n = 0; n < 20_000; n++) {
                StringBuilder header = new StringBuilder();
                int pieces = random.nextInt(24);
                for (int i = 0; i < pieces; i++) {
                    header.append(PIECES.get(random.nextInt(PIECES.size())));
                }
                List<String> values = new ArrayList<>(List.of(header.toString()));
                if (random.nextBoolean()) {
                    values.add(header.reverse().toString());
                }
                Challenge c = Challenge.of(values);
                assertNotNull(c.scopes());
                if (c.resourceMetadata() != null) {
                    assertNotNull(c.resourceMetadata().getHost(), header.toString());
                }
            }
        });
    }

    @Test
    void aLoginFileCutSplicedOrRetypedIsRefusedWithoutShowingWhatItHolds() throws Exception {
        byte[] good = LoginJson.write(new StoredLogin(URI.create("https://mcp.example.com/mcp"),
                "https://mcp.example.com/mcp", "https://auth.example.com",
                new StoredLogin.Client("client-1", "cs-SECRET-0123456789", "client_secret_basic",
                        List.of("http://127.0.0.1:8123/callback")),
                new StoredLogin.Tokens("at-SECRET-0123456789", SECRET, Instant.ofEpochSecond(1_800_000_000L),
                        Instant.ofEpochSecond(1_800_003_600L), List.of("read", "write"))));
        assertEquals(SECRET, LoginJson.read(good).tokens().refreshToken());
        String text = new String(good, StandardCharsets.UTF_8);
        Random random = new Random(21);
        List<String> replacements = List.of("null", "1", "true", "[]", "{}", "\"\"", "\"x\"", "\"2026-99-99\"",
                "\"::not a url\"", "[1,2]", "-1");
        int refused = 0;
        for (int n = 0; n < 5_000; n++) {
            String mutated = switch (random.nextInt(4)) {
                case 0 -> text.substring(0, random.nextInt(text.length()));
                case 1 -> {
                    int at = random.nextInt(text.length());
                    yield text.substring(0, at) + text.substring(random.nextInt(text.length()));
                }
                case 2 -> {
                    // a value of another type in place of one of the document's values
                    List<Integer> colons = new ArrayList<>();
                    for (int i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
                        colons.add(i);
                    }
                    int at = colons.get(random.nextInt(colons.size()));
                    int end = text.indexOf('\n', at) < 0 ? text.length() : text.indexOf('\n', at);
                    String line = text.substring(at + 1, end);
                    String comma = line.endsWith(",") ? "," : "";
                    yield text.substring(0, at + 1) + " " + replacements.get(random.nextInt(replacements.size()))
                            + comma + text.substring(end);
                }
                default -> {
                    char[] chars = text.toCharArray();
                    chars[random.nextInt(chars.length)] = "{}[]\",:0\\".charAt(random.nextInt(9));
                    yield new String(chars);
                }
            };
            try {
                StoredLogin read = LoginJson.read(mutated.getBytes(StandardCharsets.UTF_8));
                assertNotNull(read.server());
                assertNotNull(read.issuer());
            } catch (IOException e) {
                refused++;
                assertFalse(e.getMessage().contains("SECRET"), e.getMessage());
            }
        }
        assertFalse(refused == 0, "no mutation was refused");
    }
}
