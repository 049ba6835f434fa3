package dev.stretto.proxy.jwt;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Private keys for {@code private_key_jwt}: read from PKCS #8 PEM text, and the JWS algorithm
 * each kind signs with, all with the JDK's own providers.
 */
public final class PemKeys {

    /**
     * How a key signs: the JWS {@code alg} and the JDK's signature algorithm (EC signatures in the
     * JWS form, R and S side by side, not DER).
     */
    public record Signing(String jwsAlgorithm, String jdkAlgorithm) {
    }

    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private PemKeys() {
    }

    /**
     * The key in {@code pem}.
     *
     * @throws IllegalArgumentException when it is not a PKCS #8 key of a kind that can sign
     *                                  (never showing the text)
     */
    public static PrivateKey read(String pem) {
        Matcher m = PEM.matcher(pem);
        if (!m.find()) {
            if (pem.contains("BEGIN EC PRIVATE KEY") || pem.contains("BEGIN RSA PRIVATE KEY")) {
                throw new IllegalArgumentException("the private key is in the older SEC1/PKCS #1 form; convert it to"
                        + " PKCS #8 (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8)");
            }
            throw new IllegalArgumentException("no PKCS #8 private key (-----BEGIN PRIVATE KEY-----) in the text");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the private key's base64 is broken");
        }
        for (String kind : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                PrivateKey key = KeyFactory.getInstance(kind).generatePrivate(new PKCS8EncodedKeySpec(der));
                algorithmFor(key);
                return key;
            } catch (GeneralSecurityException | IllegalArgumentException notThisKind) {
                // try the next kind
            }
        }
        throw new IllegalArgumentException("the private key is not an EC (P-256, P-384, P-521), RSA or Ed25519 key");
    }

    /**
     * How {@code key} signs.
     *
     * @throws IllegalArgumentException for a key of another kind or curve
     */
    public static Signing algorithmFor(PrivateKey key) {
        if (key instanceof ECPrivateKey ec) {
            int bits = ec.getParams().getCurve().getField().getFieldSize();
            return switch (bits) {
                case 256 -> new Signing("ES256", "SHA256withECDSAinP1363Format");
                case 384 -> new Signing("ES384", "SHA384withECDSAinP1363Format");
                case 521 -> new Signing("ES512", "SHA512withECDSAinP1363Format");
                default -> throw new IllegalArgumentException("an EC key on a " + bits + "-bit curve cannot sign a JWT"
                        + " (P-256, P-384 or P-521)");
            };
        }
        if (key instanceof RSAPrivateKey) {
            return new Signing("RS256", "SHA256withRSA");
        }
        if ("EdDSA".equals(key.getAlgorithm()) || "Ed25519".equals(key.getAlgorithm())) {
            return new Signing("EdDSA", "Ed25519");
        }
        throw new IllegalArgumentException("a " + key.getAlgorithm() + " key cannot sign a JWT (EC, RSA or Ed25519)");
    }
}
