package dev.stretto.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stretto-proxy}'s OAuth options, checked: how to sign in to an {@code --upstream}
 * server that needs it. Every one of them needs {@code --upstream}; a value the option does not
 * take is an {@link IllegalArgumentException} whose message is the usage error. Files are only
 * named here: {@link OAuthChoice#settings} reads them.
 */
public final class OAuthArgs {

    static final String CLIENT_ID = "--oauth-client-id";
    static final String SECRET_FILE = "--oauth-client-secret-file";
    static final String KEY_FILE = "--oauth-client-key-file";
    static final String METADATA_URL = "--oauth-client-metadata-url";
    static final String SCOPE = "--oauth-scope";
    static final String PORT = "--oauth-callback-port";
    static final String BROWSER = "--oauth-browser";
    static final String TIMEOUT = "--oauth-timeout";
    static final String NO_BROWSER = "--oauth-no-browser";
    static final String CLIENT_CREDENTIALS = "--oauth-client-credentials";

    /** The options that take a value. */
    public static final List<String> WITH_VALUE = List.of(CLIENT_ID, SECRET_FILE, KEY_FILE, METADATA_URL, SCOPE, PORT, BROWSER,
            TIMEOUT);

    /** The switches. */
    public static final Set<String> FLAGS = Set.of(CLIENT_CREDENTIALS, NO_BROWSER);

    // The switches in the order of the help, for messages.
    private static final List<String> SWITCHES = List.of(CLIENT_CREDENTIALS, NO_BROWSER);

    private OAuthArgs() {
    }

    /**
     * The first OAuth option given, in the order of the help.
     *
     * @param values the options with a value, by name
     * @param flags  the switches given
     * @return its name, or null when none is given
     */
    public static String firstGiven(Map<String, String> values, Set<String> flags) {
        for (String option : WITH_VALUE) {
            if (values.containsKey(option)) {
                return option;
            }
        }
        for (String flag : SWITCHES) {
            if (flags.contains(flag)) {
                return flag;
            }
        }
        return null;
    }

    /**
     * The OAuth options given, with the defaults for the rest.
     *
     * @param values   the options with a value, by name
     * @param flags    the switches given
     * @param upstream whether {@code --upstream} is given
     * @throws IllegalArgumentException with the usage error
     */
    public static OAuthChoice parse(Map<String, String> values, Set<String> flags, boolean upstream) {
        if (!upstream) {
            String given = firstGiven(values, flags);
            if (given != null) {
                throw new IllegalArgumentException(given + " is for an HTTP server that needs OAuth; give"
                        + " --upstream URL too");
            }
            return OAuthChoice.DEFAULT;
        }
        String clientId = values.get(CLIENT_ID);
        if (clientId != null && (clientId.isBlank() || clientId.chars().anyMatch(c -> c < 0x20 || c == 0x7F))) {
            throw new IllegalArgumentException(CLIENT_ID + " needs a client id without control characters");
        }
        URI metadataUrl = null;
        if (values.containsKey(METADATA_URL)) {
            try {
                metadataUrl = new URI(values.get(METADATA_URL));
            } catch (URISyntaxException e) {
                metadataUrl = null;
            }
            if (metadataUrl == null || !"https".equalsIgnoreCase(metadataUrl.getScheme()) || metadataUrl.getHost() == null
                    || metadataUrl.getRawPath() == null || metadataUrl.getRawPath().length() <= 1) {
                throw new IllegalArgumentException(METADATA_URL + " needs the https URL (with a path) of the client's"
                        + " metadata document, not '" + values.get(METADATA_URL) + "'");
            }
        }
        List<String> scopes = List.of();
        if (values.containsKey(SCOPE)) {
            scopes = Arrays.stream(values.get(SCOPE).split("[\\s,]+")).filter(s -> !s.isEmpty()).toList();
            for (String s : scopes) {
                if (s.chars().anyMatch(c -> c < 0x21 || c == 0x7F || c == '"' || c == '\\')) {
                    throw new IllegalArgumentException(SCOPE + ": '" + s + "' is not a scope");
                }
            }
            if (scopes.isEmpty()) {
                throw new IllegalArgumentException(SCOPE + " needs one or more scopes, separated by spaces or commas");
            }
        }
        int port = 0;
        if (values.containsKey(PORT)) {
            String p = values.get(PORT);
            try {
                port = p.matches("[0-9]{1,5}") ? Integer.parseInt(p) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException(PORT + " needs a port from 1 to 65535, not '" + p + "'");
            }
        }
        String browser = null;
        if (values.containsKey(BROWSER)) {
            if (flags.contains(NO_BROWSER)) {
                throw new IllegalArgumentException("give either " + BROWSER + " or " + NO_BROWSER + ", not both");
            }
            browser = values.get(BROWSER);
            if (browser.isBlank()) {
                throw new IllegalArgumentException(BROWSER + " needs a command");
            }
        }
        Duration timeout = null;
        if (values.containsKey(TIMEOUT)) {
            String t = values.get(TIMEOUT);
            if (!t.matches("[0-9]{1,6}")) {
                throw new IllegalArgumentException(TIMEOUT + " needs a whole number of seconds (1 or more), not '" + t + "'");
            }
            timeout = Duration.ofSeconds(Long.parseLong(t));
            if (timeout.isZero()) {
                throw new IllegalArgumentException(TIMEOUT + " needs a whole number of seconds (1 or more), not '" + t + "'");
            }
        }
        Path secret = ProxyArgs.path(values, SECRET_FILE);
        Path key = ProxyArgs.path(values, KEY_FILE);
        boolean machine = flags.contains(CLIENT_CREDENTIALS);
        if (machine && clientId == null) {
            throw new IllegalArgumentException(CLIENT_CREDENTIALS + " needs " + CLIENT_ID + " too");
        }
        if (machine && secret == null && key == null) {
            throw new IllegalArgumentException(CLIENT_CREDENTIALS + " needs the client's secret (" + SECRET_FILE
                    + ") or private key (" + KEY_FILE + ")");
        }
        if ((secret != null || key != null) && clientId == null) {
            throw new IllegalArgumentException((secret != null ? SECRET_FILE : KEY_FILE) + " is the secret of a"
                    + " pre-registered client; give " + CLIENT_ID + " too");
        }
        return new OAuthChoice(clientId, secret, key, metadataUrl, scopes, port, browser, flags.contains(NO_BROWSER),
                timeout, machine);
    }
}
