package dev.stretto.cli;

import dev.stretto.proxy.BrowserOpener;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.OAuthSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The OAuth options of one run, as given ({@link OAuthArgs}); the files they name are read, and
 * the environment consulted, by {@link #settings}.
 *
 * @param clientId          {@code --oauth-client-id}, or null
 * @param secretFile        {@code --oauth-client-secret-file}, or null
 * @param keyFile           {@code --oauth-client-key-file}, or null
 * @param metadataUrl       {@code --oauth-client-metadata-url}, or null
 * @param scopes            {@code --oauth-scope}, none when not given
 * @param callbackPort      {@code --oauth-callback-port}, or 0
 * @param browser           {@code --oauth-browser}, a command line, or null
 * @param noBrowser         {@code --oauth-no-browser}
 * @param timeout           {@code --oauth-timeout}, or null for the default
 * @param clientCredentials {@code --oauth-client-credentials}
 */
public record OAuthChoice(String clientId, Path secretFile, Path keyFile, URI metadataUrl, List<String> scopes,
                   int callbackPort, String browser, boolean noBrowser, Duration timeout,
                   boolean clientCredentials) {

    /** The environment variable that names the browser command, as {@code --oauth-browser}. */
    static final String BROWSER_VARIABLE = "STRETTO_OAUTH_BROWSER";

    /** No OAuth option given. */
    public static final OAuthChoice DEFAULT = new OAuthChoice(null, null, null, null, List.of(), 0, null, false, null, false);

    /**
     * The library's settings: the secret and key read from their files (a file's trailing line
     * break is not part of the secret), the browser from {@code --oauth-browser}, else {@value
     * #BROWSER_VARIABLE}, else the system's.
     *
     * @param env the proxy's environment
     * @throws IllegalArgumentException when a file cannot be read or holds no usable secret or
     *                                  key; the message (a usage error) names the file, never
     *                                  what it holds
     */
    public OAuthSettings settings(Map<String, String> env) {
        HostEnvironment host = HostEnvironment.of(env, -1);
        OAuthSettings s = OAuthSettings.DEFAULT.withScopes(scopes).withCallbackPort(callbackPort)
                .withClientMetadataUrl(metadataUrl);
        if (timeout != null) {
            s = s.withLoginTimeout(timeout);
        }
        String secret = secretFile == null ? null : read(host, secretFile, OAuthArgs.SECRET_FILE).strip();
        if (secret != null && secret.isEmpty()) {
            throw new IllegalArgumentException(OAuthArgs.SECRET_FILE + " " + secretFile + ": the file is empty");
        }
        if (secret != null && secret.chars().anyMatch(c -> c < 0x20)) {
            throw new IllegalArgumentException(OAuthArgs.SECRET_FILE + " " + secretFile + ": the file holds more than"
                    + " one line; put only the client secret in it");
        }
        s = s.withClient(clientId, secret);
        if (keyFile != null) {
            try {
                s = s.withClientKey(OAuthSettings.readPrivateKey(read(host, keyFile, OAuthArgs.KEY_FILE)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(OAuthArgs.KEY_FILE + " " + keyFile + ": " + e.getMessage());
            }
        }
        if (noBrowser) {
            s = s.withBrowser(BrowserOpener.none());
        } else if (browser != null) {
            s = s.withBrowser(OAuthLogins.browserCommandLine(browser));
        } else {
            String fromEnv = env.get(BROWSER_VARIABLE);
            if (fromEnv != null && !fromEnv.isBlank()) {
                s = s.withBrowser(OAuthLogins.browserCommandLine(fromEnv));
            }
        }
        try {
            return s.withClientCredentials(clientCredentials);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static String read(HostEnvironment host, Path file, String option) {
        Path path;
        try {
            path = host.resolve(file, option + " file", "file");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option + " " + path + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + path + ": cannot read it ("
                    + e.getClass().getSimpleName() + ")");
        }
    }
}
