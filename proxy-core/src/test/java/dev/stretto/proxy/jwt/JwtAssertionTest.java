package dev.stretto.proxy.jwt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.OAuthSettings;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Client assertions for {@code private_key_jwt}, verified with the JDK against the key's public half. */
class JwtAssertionTest {

    @Test
    void aClientAssertionIsSignedWithTheJdksEcdsaAndVerifiesWithThePublicKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = g.generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                pair.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        String jwt = JwtAssertion.sign("client-1", "https://as.example", OAuthSettings.readPrivateKey(pem),
                Instant.ofEpochSecond(1_800_000_000L));
        String[] parts = jwt.split("\\.");
        ObjectMapper json = new ObjectMapper();
        JsonNode header = json.readTree(Base64.getUrlDecoder().decode(parts[0]));
        JsonNode claims = json.readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertEquals("ES256", header.get("alg").asText());
        assertEquals("client-1", claims.get("iss").asText());
        assertEquals("client-1", claims.get("sub").asText());
        assertEquals("https://as.example", claims.get("aud").asText());
        assertEquals(1_800_000_300L, claims.get("exp").asLong());
        Signature verify = Signature.getInstance("SHA256withECDSAinP1363Format");
        verify.initVerify(pair.getPublic());
        verify.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertTrue(verify.verify(Base64.getUrlDecoder().decode(parts[2])));

        IllegalArgumentException notPem = assertThrows(IllegalArgumentException.class,
                () -> OAuthSettings.readPrivateKey("secret-key-material"));
        assertFalse(notPem.getMessage().contains("secret-key-material"));
    }
}
