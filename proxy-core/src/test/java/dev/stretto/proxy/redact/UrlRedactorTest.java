package dev.stretto.proxy.redact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

class UrlRedactorTest {

    @Test
    void plainUrlIsUnchanged() {
        assertEquals("https://example.com/mcp", UrlRedactor.redact(URI.create("https://example.com/mcp")));
        assertEquals("http://127.0.0.1:3001/mcp?x=1",
                UrlRedactor.redact(URI.create("http://127.0.0.1:3001/mcp?x=1")));
    }

    @Test
    void userInfoAndFragmentAreRemoved() {
        assertEquals("https://example.com:8443/mcp",
                UrlRedactor.redact(URI.create("https://alice:s3cret@example.com:8443/mcp#access_token=abc")));
    }

    @Test
    void credentialLookingQueryValuesAreRedactedInPlace() {
        String out = UrlRedactor.redact(URI.create(
                "https://example.com/mcp?api_key=K1&region=eu&access_token=T2&X-Amz-Signature=S3&sig=S4"
                        + "&sessionId=S5&code=C6&Auth=A7&flag&page=2&pass%77ord=P8"));
        assertEquals("https://example.com/mcp?api_key=<redacted>&region=eu&access_token=<redacted>"
                + "&X-Amz-Signature=<redacted>&sig=<redacted>&sessionId=<redacted>&code=<redacted>&Auth=<redacted>"
                + "&flag&page=2&pass%77ord=<redacted>", out);
        for (String secret : new String[] {"K1", "T2", "S3", "S4", "S5", "C6", "A7", "P8"}) {
            assertFalse(out.contains(secret), secret);
        }
    }

    @Test
    void ipv6HostIsKept() {
        assertEquals("http://[::1]:9/mcp", UrlRedactor.redact(URI.create("http://u:p@[::1]:9/mcp")));
    }

    @Test
    void namesOfCredentialsAreRecognised() {
        assertTrue(UrlRedactor.looksLikeCredential("GITHUB_TOKEN"));
        assertTrue(UrlRedactor.looksLikeCredential("passwd"));
        assertFalse(UrlRedactor.looksLikeCredential("region"));
    }
}
