package dev.stretto.proxy.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Proof Key for Code Exchange (RFC 7636) with S256, and the random state of an authorization
 * request: a 43-character verifier of 32 random bytes, and its SHA-256 challenge.
 */
record Pkce(String verifier, String challenge) {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    static Pkce create() {
        String verifier = random(32);
        return new Pkce(verifier, challengeOf(verifier));
    }

    static String challengeOf(String verifier) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return B64.encodeToString(hash);
        } catch (NoSuchAlgorithmException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /** {@code bytes} random bytes, base64url without padding. */
    static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return B64.encodeToString(b);
    }

    /** Hides the verifier, which must stay between the proxy and the token endpoint. */
    @Override
    public String toString() {
        return "Pkce[challenge=" + challenge + "]";
    }
}
