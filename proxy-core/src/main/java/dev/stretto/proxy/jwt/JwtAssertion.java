package dev.stretto.proxy.jwt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/**
 * A client assertion for {@code private_key_jwt} (RFC 7523 section 2.2): a JWT signed with the
 * client's key whose issuer and subject are the client id and whose audience is the
 * authorization server, good for five minutes, with a fresh {@code jti} each time.
 */
public final class JwtAssertion {

    /** The {@code client_assertion_type} of such an assertion. */
    public static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private JwtAssertion() {
    }

    /**
     * The assertion of {@code clientId} for {@code audience}, signed with {@code key} as {@link
     * PemKeys#algorithmFor} says.
     *
     * @throws IllegalArgumentException for a key that cannot sign a JWT
     */
    public static String sign(String clientId, String audience, PrivateKey key, Instant now) {
        PemKeys.Signing signing = PemKeys.algorithmFor(key);
        ObjectNode header = JSON.createObjectNode().put("alg", signing.jwsAlgorithm()).put("typ", "JWT");
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        ObjectNode claims = JSON.createObjectNode()
                .put("iss", clientId)
                .put("sub", clientId)
                .put("aud", audience)
                .put("iat", now.getEpochSecond())
                .put("exp", now.getEpochSecond() + 300)
                .put("jti", B64.encodeToString(id));
        String input = B64.encodeToString(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance(signing.jdkAlgorithm());
            signer.initSign(key);
            signer.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + B64.encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign the client assertion with the " + signing.jwsAlgorithm()
                    + " key: " + e.getClass().getSimpleName());
        }
    }
}
