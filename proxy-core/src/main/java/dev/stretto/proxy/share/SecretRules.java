package dev.stretto.proxy.share;

import dev.stretto.proxy.redact.CommandRedactor;
import dev.stretto.proxy.redact.KnownTokens;
import java.util.List;

/**
 * The proxy's own secret rules, as this package asks them: the one place it reaches them, so
 * that they can move without the rest noticing. A key names a secret when a server command's
 * flag of that name would be redacted ({@code api_key}, {@code password}, {@code token}, ...);
 * a text holds the tokens the log scrubber and the command redaction know by their form
 * ({@code sk-...}, {@code ghp_...}, JSON web tokens, ...).
 */
final class SecretRules {

    private SecretRules() {
    }

    /** Whether a JSON key or flag name says its value is a credential. */
    static boolean namesSecret(String key) {
        return CommandRedactor.isSecretName(key);
    }

    /** The tokens of known forms in {@code text}, in order. */
    static List<String> tokensIn(String text) {
        return KnownTokens.found(text);
    }
}
