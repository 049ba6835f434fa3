package dev.stretto.cli.console.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The console's style sheet and script, which every page carries inline (so a saved page is
 * one file that needs nothing else), and the Content-Security-Policy that lets exactly these
 * two run and nothing else: no other script, no inline handler, no style attribute, nothing
 * from another origin.
 */
public final class Assets {

    /** The style sheet. */
    static final String CSS = load("console.css");
    /** The script. */
    static final String JS = load("console.js");

    private static final String CSS_HASH = sha256(CSS);
    private static final String JS_HASH = sha256(JS);

    private Assets() {
    }

    /**
     * The policy of a page the console serves: its own script and style, server-sent events
     * from itself, pictures only as data, forms only to itself, no frames.
     *
     * @return the header's value
     */
    public static String servedPolicy() {
        return "default-src 'none'; script-src '" + JS_HASH + "'; style-src '" + CSS_HASH + "'; img-src data:; "
                + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    }

    /**
     * The policy of a saved page ({@code stretto show --html}): as {@link #servedPolicy()}, but
     * it connects nowhere and submits nothing.
     *
     * @return the meta element's value
     */
    public static String filePolicy() {
        return "default-src 'none'; script-src '" + JS_HASH + "'; style-src '" + CSS_HASH + "'; img-src data:; "
                + "connect-src 'none'; form-action 'none'; base-uri 'none'";
    }

    private static String load(String name) {
        try (InputStream in = Assets.class.getResourceAsStream("/dev/stretto/cli/console/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
