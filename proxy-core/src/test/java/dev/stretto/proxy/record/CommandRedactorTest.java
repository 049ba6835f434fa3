package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandRedactorTest {

    private static List<String> redact(String... argv) {
        return CommandRedactor.redact(List.of(argv));
    }

    @Test
    void valueAfterACredentialFlagIsRedacted() {
        assertEquals(List.of("srv", "--api-key", "<redacted>", "--port", "80"),
                redact("srv", "--api-key", "sk-123", "--port", "80"));
        assertEquals(List.of("srv", "--TOKEN", "<redacted>"), redact("srv", "--TOKEN", "abc"));
        assertEquals(List.of("srv", "-password", "<redacted>"), redact("srv", "-password", "hunter2"));
        assertEquals(List.of("srv", "--client-secret", "<redacted>"), redact("srv", "--client-secret", "s"));
        assertEquals(List.of("srv", "--passwd", "<redacted>"), redact("srv", "--passwd", "s"));
        assertEquals(List.of("srv", "--credentials", "<redacted>"), redact("srv", "--credentials", "f.json"));
        assertEquals(List.of("srv", "--auth", "<redacted>"), redact("srv", "--auth", "user:pw"));
    }

    @Test
    void aFlagAfterACredentialFlagIsNotTakenForItsValue() {
        assertEquals(List.of("srv", "--token", "--verbose", "x"), redact("srv", "--token", "--verbose", "x"));
        assertEquals(List.of("srv", "--token", "--api-key", "<redacted>"),
                redact("srv", "--token", "--api-key", "v"));
    }

    @Test
    void flagEqualsValueAndNameEqualsValueKeepTheName() {
        assertEquals(List.of("srv", "--token=<redacted>", "--mode=fast"), redact("srv", "--token=abc", "--mode=fast"));
        assertEquals(List.of("env", "GITHUB_TOKEN=<redacted>", "HOME=/h", "srv"),
                redact("env", "GITHUB_TOKEN=ghp_x", "HOME=/h", "srv"));
        assertEquals(List.of("srv", "--api_key=<redacted>"), redact("srv", "--api_key=a=b"));
    }

    @Test
    void authorizationHeadersAndBearerTokensAreRedactedWhole() {
        assertEquals(List.of("srv", "-H", "<redacted>"), redact("srv", "-H", "Authorization: Bearer xyz"));
        assertEquals(List.of("srv", "<redacted>"), redact("srv", "authorization:basic abc"));
        assertEquals(List.of("srv", "--header", "<redacted>"), redact("srv", "--header", "X-Api: BEARER abc"));
    }

    @Test
    void ordinaryCommandsAreUnchanged() {
        List<String> argv = List.of("npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp", "--port", "3000");
        assertEquals(argv, CommandRedactor.redact(argv));
    }
}
