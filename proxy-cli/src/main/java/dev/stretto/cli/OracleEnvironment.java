package dev.stretto.cli;

import dev.stretto.proxy.io.IoMessages;
import dev.stretto.proxy.oracle.ApiKey;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
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
     * The settings in {@code env}.
     *
     * @throws IllegalArgumentException with a message naming the variable when a value cannot
     *                                  be used: a key file that cannot be read or is empty, a bad
     *                                  URL; the message never shows the key
     */
    public static OracleSettings read(Map<String, String> env) {
        ApiKey key = key(env);
        URI baseUrl = URI.create(OracleSettings.DEFAULT_BASE_URL);
        String base = value(env, BASE_URL);
        String model = value(env, MODEL);
        String certFile = value(env, CERT_FILE);
        try {
            if (base != null) {
                baseUrl = OracleSettings.parseBaseUrl(base);
            }
            return new OracleSettings(key, baseUrl, model == null ? OracleSettings.DEFAULT_MODEL : model.strip(),
                    certFile == null ? null : Path.of(certFile));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(BASE_URL + ": " + e.getMessage(), e);
        }
    }

    /**
     * The settings in {@code env} for an oracle of {@code mode}: the key is read only for
     * {@link Oracle.Mode#JEV}, the one mode that uses it, so a broken key file does not stop a
     * replayed or mocked run.
     *
     * @throws IllegalArgumentException as {@link #read(Map)}
     */
    public static OracleSettings read(Map<String, String> env, Oracle.Mode mode) {
        if (mode == Oracle.Mode.JEV) {
            return read(env);
        }
        Map<String, String> withoutKey = new HashMap<>(env);
        withoutKey.remove(API_KEY);
        withoutKey.remove(API_KEY_FILE);
        return read(withoutKey);
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
        Path path = Path.of(file);
        String where = API_KEY_FILE + " names " + path;
        if (Files.isDirectory(path)) {
            throw new IllegalArgumentException(where + ", which is a directory");
        }
        String content;
        try {
            content = Files.readString(path, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(where + ", which is not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ", which cannot be read: " + IoMessages.describe(e));
        }
        if (content.isBlank()) {
            throw new IllegalArgumentException(where + ", which is empty");
        }
        try {
            return ApiKey.of(content);
        } catch (IllegalArgumentException e) {
            // Never the content: the file may hold the key followed by something else.
            throw new IllegalArgumentException(where + ", whose content is not one key: " + e.getMessage());
        }
    }

    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
