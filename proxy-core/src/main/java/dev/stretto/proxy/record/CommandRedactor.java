package dev.stretto.proxy.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Replaces credential-looking values of a server command with {@code <redacted>} before the
 * command is written to a log header. Best effort by design: credentials belong in the
 * server's environment, which the proxy never records.
 *
 * <p>What counts as a credential: the value after a flag whose name contains one of the
 * {@linkplain #SENSITIVE sensitive words} (unless the value itself starts with {@code -});
 * the value of {@code --flag=value} or {@code NAME=value} when the part before {@code =}
 * contains one; and a whole argument that starts with {@code authorization:} or contains
 * {@code bearer }. All comparisons ignore case.
 */
public final class CommandRedactor {

    /** The placeholder written in place of a value. */
    public static final String REDACTED = "<redacted>";

    /** Words that mark a name as naming a credential. */
    public static final List<String> SENSITIVE =
            List.of("key", "token", "secret", "password", "passwd", "credential", "auth");

    private CommandRedactor() {
    }

    /** The command with every credential-looking value replaced. */
    public static List<String> redact(List<String> argv) {
        List<String> out = new ArrayList<>(argv.size());
        boolean valueExpected = false;
        for (String arg : argv) {
            String lower = arg.toLowerCase(Locale.ROOT);
            if (valueExpected && !arg.startsWith("-")) {
                out.add(REDACTED);
                valueExpected = false;
                continue;
            }
            valueExpected = false;
            if (lower.startsWith("authorization:") || lower.contains("bearer ")) {
                out.add(REDACTED);
                continue;
            }
            int eq = arg.indexOf('=');
            if (eq > 0 && isSensitive(lower.substring(0, eq))) {
                out.add(arg.substring(0, eq + 1) + REDACTED);
                continue;
            }
            if (eq < 0 && arg.startsWith("-") && isSensitive(lower)) {
                valueExpected = true;
            }
            out.add(arg);
        }
        return List.copyOf(out);
    }

    private static boolean isSensitive(String lowerName) {
        for (String word : SENSITIVE) {
            if (lowerName.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
