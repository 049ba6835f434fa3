package dev.stretto.proxy.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pieces of discovery, each on its own. */
class DiscoveryPiecesTest {

    @Test
    void theBearerChallengeIsFoundAmongOthersWithQuotedAndEscapedValues() {
        Challenge c = Challenge.of(List.of("Basic realm=\"x, y\", Bearer realm=\"mcp\", error=\"insufficient_scope\","
                + " scope=\"files:read  files:write\", resource_metadata=\"https://h.example/.well-known/"
                + "oauth-protected-resource/mcp\", error_description=\"a \\\"quoted\\\" word\""));
        assertEquals(URI.create("https://h.example/.well-known/oauth-protected-resource/mcp"), c.resourceMetadata());
        assertEquals(List.of("files:read", "files:write"), c.scopes());
        assertTrue(c.insufficientScope());

        Challenge unquoted = Challenge.of(List.of("bearer resource_metadata=https://h.example/prm, scope=a"));
        assertEquals(URI.create("https://h.example/prm"), unquoted.resourceMetadata());
        assertEquals(List.of("a"), unquoted.scopes());

        assertEquals(Challenge.NONE, Challenge.of(List.of("Basic realm=\"only\"")));
        assertEquals(Challenge.NONE, Challenge.of(List.of()));
        assertEquals(null, Challenge.of(List.of("Bearer resource_metadata=\"not a url\"")).resourceMetadata());
        assertEquals(null, Challenge.of(List.of("Bearer resource_metadata=\"file:///etc/passwd\"")).resourceMetadata());
    }

    @Test
    void theProtectedResourceMetadataIsLookedForAtTheChallengesUrlThenPathAwareThenRoot() {
        URI endpoint = URI.create("https://h.example/tenant/mcp/");
        assertEquals(List.of(URI.create("https://h.example/custom.json"),
                        URI.create("https://h.example/.well-known/oauth-protected-resource/tenant/mcp"),
                        URI.create("https://h.example/.well-known/oauth-protected-resource")),
                ResourceMetadata.candidates(endpoint, URI.create("https://h.example/custom.json")));
        assertEquals(List.of(URI.create("https://h.example/.well-known/oauth-protected-resource")),
                ResourceMetadata.candidates(URI.create("https://h.example"), null));
    }

    @Test
    void aResourceStandsForTheEndpointOrAParentOfItOnTheSameOriginOnly() {
        URI endpoint = URI.create("https://h.example/mcp/v1");
        for (String ok : List.of("https://h.example/mcp/v1", "https://h.example/mcp", "https://h.example/",
                "https://h.example", "https://H.EXAMPLE:443/mcp/")) {
            assertTrue(ResourceMetadata.covers(ok, endpoint), ok);
        }
        for (String bad : List.of("https://evil.example.com/mcp", "http://h.example/mcp", "https://h.example:8443/mcp",
                "https://h.example/mc", "https://h.example/mcp/v1/more", "https://h.example/other",
                "https://h.example/mcp#frag", "not a uri", "/mcp")) {
            assertFalse(ResourceMetadata.covers(bad, endpoint), bad);
        }
    }

    @Test
    void theAuthorizationServersMetadataIsLookedForInTheSpecsOrder() throws Exception {
        assertEquals(List.of(URI.create("https://as.example/.well-known/oauth-authorization-server/tenant1"),
                        URI.create("https://as.example/.well-known/openid-configuration/tenant1"),
                        URI.create("https://as.example/tenant1/.well-known/openid-configuration")),
                ServerMetadata.candidates(URI.create("https://as.example/tenant1/")));
        assertEquals(List.of(URI.create("https://as.example/.well-known/oauth-authorization-server"),
                        URI.create("https://as.example/.well-known/openid-configuration")),
                ServerMetadata.candidates(URI.create("https://as.example")));
        ServerMetadata legacy = ServerMetadata.fallback(URI.create("https://h.example/v1/mcp"));
        assertEquals(URI.create("https://h.example/authorize"), legacy.authorizationEndpoint());
        assertEquals(URI.create("https://h.example/token"), legacy.tokenEndpoint());
        assertEquals(URI.create("https://h.example/register"), legacy.registrationEndpoint());
    }

    @Test
    void pkceUsesS256OfARandomVerifier() {
        Pkce a = Pkce.create();
        Pkce b = Pkce.create();
        assertEquals(43, a.verifier().length());
        assertFalse(a.verifier().equals(b.verifier()));
        // base64url(SHA-256(verifier)) without padding, as Python's hashlib and base64 compute it
        assertEquals("uEzckRKwVBZ_0pSUOKCsAan54MmOQpjC7g-SzFH2MOQ",
                Pkce.challengeOf("dBjftJeZ4CVP-mB92K9uhvvbXa8KxXtH6aUcWz8Zn0U"));
        assertFalse(a.toString().contains(a.verifier()));
    }
}
