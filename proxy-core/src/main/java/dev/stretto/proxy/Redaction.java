package dev.stretto.proxy;

import dev.stretto.proxy.redact.CommandRedactor;
import java.util.List;

/**
 * The proxy's rules for what must not be shown, for a program that shows what the proxy
 * records: a server command with its credential-looking arguments replaced (as log headers
 * hold it), and text that is a token by its form (what a message must not repeat, whatever it
 * was given as). The project's {@code docs/proxy.md} lists the rules.
 */
public final class Redaction {

    /** What stands where a secret was. */
    public static final String REDACTED = CommandRedactor.REDACTED;

    private Redaction() {
    }

    /**
     * A command as logs and messages show it: the values of credential-looking flags and
     * arguments ({@code --api-key=...}, {@code TOKEN=...}, a URL's password, a known token's
     * form) replaced by {@value #REDACTED}.
     *
     * @param argv the command
     * @return the command to show
     */
    public static List<String> command(List<String> argv) {
        return CommandRedactor.redact(argv);
    }

    /**
     * Whether text holds a token recognisable by its form ({@code ghp_...}, {@code sk-...},
     * {@code xoxb-...}, a JWT, ...).
     *
     * @param text any text
     * @return true when it must not be shown
     */
    public static boolean looksLikeToken(String text) {
        return CommandRedactor.looksLikeToken(text);
    }
}
