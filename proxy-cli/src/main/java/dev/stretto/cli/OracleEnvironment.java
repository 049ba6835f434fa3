package dev.stretto.cli;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import java.nio.file.Path;
import java.util.Map;

/**
 * The System-One oracle's settings as the environment gives them, read by the CLI and handed
 * to proxy-core (which never reads the environment):
 * <ul>
 *   <li>{@code TYPESAFE_API_KEY}, the key itself; else {@code TYPESAFE_API_KEY_FILE}, a file
 *       holding it (surrounding white space, such as the last newline, is dropped). Neither
 *       set means no key: {@code mock} and {@code replay} need none.</li>
 *   <li>{@code TYPESAFE_BASE_URL}, default {@code https://api.typesafe.ai} (trailing {@code /}s
 *       dropped);</li>
 *   <li>{@code TYPESAFE_DEFAULT_MODEL}, default {@code jev-latest};</li>
 *   <li>{@code SSL_CERT_FILE}, a PEM file of certificates trusted besides the JDK's own roots.</li>
 * </ul>
 * A variable set to an empty value counts as not set. Paths are taken as they are (no
 * {@code ~}), relative ones from the working directory.
 */
public final class OracleEnvironment {

    /** The variable holding the key. */
    public static final String API_KEY = "TYPESAFE_API_KEY";
    /** The variable naming a file that holds the key. */
    public static final String API_KEY_FILE = "TYPESAFE_API_KEY_FILE";
    static final String BASE_URL = "TYPESAFE_BASE_URL";
    static final String MODEL = "TYPESAFE_DEFAULT_MODEL";
    static final String CERT_FILE = "SSL_CERT_FILE";

    private OracleEnvironment() {
    }

    /**
     * Settings of an oracle of {@code mode} with what {@code env} gives, the answer cache still
     * to be set: the key is read only for {@link OracleMode#JEV}, the one mode that uses it, so a
     * broken key file does not stop a replayed or mocked run.
     *
     * @throws IllegalArgumentException with a message naming the variable when a value cannot
     *                                  be used: a key file that cannot be read or is empty, a bad
     *                                  URL; the message never shows the key
     */
    public static OracleSettings.Builder read(Map<String, String> env, OracleMode mode) {
        OracleSettings.Builder b = OracleSettings.builder(mode).apiKey(mode == OracleMode.JEV ? key(env) : null);
        String base = value(env, BASE_URL);
        if (base != null) {
            try {
                b.baseUrl(base);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(BASE_URL + ": " + e.getMessage(), e);
            }
        }
        String model = value(env, MODEL);
        if (model != null) {
            b.model(model);
        }
        String certFile = value(env, CERT_FILE);
        return b.extraRoots(certFile == null ? null : Path.of(certFile));
    }

    /**
     * Whether {@code env} gives a key ({@link #API_KEY} or {@link #API_KEY_FILE}); once {@link
     * #read} has read it for {@link OracleMode#JEV}, whether the oracle has one.
     */
    public static boolean keyGiven(Map<String, String> env) {
        return value(env, API_KEY) != null || value(env, API_KEY_FILE) != null;
    }

    private static ApiKey key(Map<String, String> env) {
        String inline = value(env, API_KEY);
        if (inline != null) {
            try {
                return ApiKey.of(inline);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(API_KEY + ": " + e.getMessage());
            }
        }
        String file = value(env, API_KEY_FILE);
        if (file == null) {
            return null;
        }
        try {
            return ApiKey.read(Path.of(file));
        } catch (ApiKey.UnusableFile e) {
            throw new IllegalArgumentException(API_KEY_FILE + " names " + e.file() + ", " + e.problem());
        }
    }

    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
