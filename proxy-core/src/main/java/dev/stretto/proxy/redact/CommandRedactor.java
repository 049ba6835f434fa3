package dev.stretto.proxy.redact;

import dev.stretto.proxy.redact.KnownTokens;
import dev.stretto.proxy.redact.UrlRedactor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces credential-looking values of a server command with {@code <redacted>} before the
 * command is written to a log header. Best effort by design: credentials belong in the
 * server's environment, which the proxy never records. When in doubt a value is redacted:
 * a hidden harmless value costs a reader little, a shown secret cannot be taken back.
 *
 * <p>The shapes, in the order they are tried ({@link Shape} has one constant for each, and
 * docs/proxy.md the same table with examples):
 * <ol>
 *   <li>{@link Shape#VALUE_AFTER_SECRET_FLAG}: the argument after a flag whose name is
 *       {@linkplain #isSecretName secret-looking} ({@code --api-key X}, {@code --pat X},
 *       {@code --cookie X}, {@code -password X}), unless it starts with {@code --} (the next
 *       option); {@code --api-key -X} hides {@code -X}.</li>
 *   <li>{@link Shape#PASSWORD_AFTER_P}: {@code -pX} always (mysql's password form), and the
 *       argument after {@code -p} unless it is a port or port mapping ({@code -p 8080},
 *       {@code -p 127.0.0.1:8080:80}, {@code -p 53/udp}) or starts with {@code -}. {@code -p}
 *       means a password to mysql-style tools and a port or a package to others; only a
 *       port is recognisable, so anything else after it is hidden.</li>
 *   <li>{@link Shape#TOKEN_AFTER_SCHEME}: the argument after {@code Bearer} or {@code Basic}
 *       (or an argument ending in one, {@code "Authorization: Bearer"}), or after a
 *       secret-looking header name with its colon ({@code "X-Api-Key:"}).</li>
 *   <li>{@link Shape#SECRET_ASSIGNMENT}: {@code NAME=value} and {@code --name=value} with a
 *       secret-looking name: {@code NAME=<redacted>}.</li>
 *   <li>{@link Shape#SECRET_HEADER}: a header line with a secret-looking name, alone or after
 *       {@code =}: {@code "X-Api-Key: X"}, {@code "Authorization: Bearer X"},
 *       {@code --header=Cookie: a=b} become {@code Name: <redacted>}.</li>
 *   <li>{@link Shape#URL_USER_INFO}: the user info of a URL anywhere in an argument,
 *       {@code postgres://u:p@h} and {@code DATABASE_URL=https://tok@h}:
 *       {@code scheme://<redacted>@h}.</li>
 *   <li>{@link Shape#SECRET_PAIR}: a {@code name=value} pair inside an argument, after
 *       {@code ?}, {@code &}, {@code ;}, {@code ,} or white space: query parameters whose names
 *       {@linkplain UrlRedactor look like credentials} ({@code ?region=eu&access_token=Y}) and
 *       connection-string parts with secret-looking names ({@code Server=h;Password=X},
 *       {@code host=h password=X}).</li>
 *   <li>{@link Shape#SCHEME_TOKEN}: {@code Bearer X} inside one argument, and {@code Basic X}
 *       when X looks like base64.</li>
 *   <li>{@link Shape#KNOWN_TOKEN}: tokens recognisable by their form wherever they are
 *       ({@link KnownTokens}): {@code sk-...} (of any length from 4 on, if it looks random),
 *       {@code sk_live_...}, {@code ghp_...}, {@code github_pat_...}, {@code glpat-...},
 *       {@code xoxb-...}, {@code AKIA...}, {@code AIza...}, {@code hf_...}, {@code npm_...},
 *       {@code ya29....} and JSON web tokens.</li>
 * </ol>
 * Everything else stays as it is: paths, ports, plain words, URLs without credentials, and
 * values of flags whose names are not secret-looking ({@code --path /x}, {@code --port 80},
 * {@code --config /etc/token.json}).
 */
public final class CommandRedactor {

    /** The placeholder written in place of a value. */
    public static final String REDACTED = "<redacted>";

    /**
     * Words that make a flag's or a variable's name secret-looking wherever they occur in it
     * ({@code --api-key}, {@code GITHUB_TOKEN}, {@code --client-secret}, {@code --author} too).
     */
    public static final List<String> SENSITIVE = List.of("key", "token", "secret", "password", "passwd",
            "passphrase", "credential", "auth", "cookie");

    /**
     * Short words that make a name secret-looking only as a whole word of it ({@code --pat},
     * {@code --pwd}, {@code Pwd=}; not {@code --path}).
     */
    public static final List<String> SENSITIVE_WORDS = List.of("pat", "pw", "pwd", "pass");

    /** The shapes of secrets this class recognises; see the class comment. */
    public enum Shape {
        /** {@code --api-key X}: the value after a secret-looking flag. */
        VALUE_AFTER_SECRET_FLAG,
        /** {@code -pX}, {@code -p X} (unless X is a port). */
        PASSWORD_AFTER_P,
        /** {@code Bearer X} as two arguments, {@code "X-Api-Key:" X}. */
        TOKEN_AFTER_SCHEME,
        /** {@code GITHUB_TOKEN=X}, {@code --token=X}. */
        SECRET_ASSIGNMENT,
        /** {@code "X-Api-Key: X"}, {@code "Authorization: Bearer X"}. */
        SECRET_HEADER,
        /** {@code postgres://u:p@h}. */
        URL_USER_INFO,
        /** {@code ?region=eu&access_token=Y}, {@code Server=h;Password=X}. */
        SECRET_PAIR,
        /** {@code "Bearer X"} inside one argument. */
        SCHEME_TOKEN,
        /** {@code sk-...}, {@code ghp_...} and other tokens known by their form. */
        KNOWN_TOKEN
    }

    /**
     * The patterns, compiled on first use only: a command with nothing that looks like a
     * secret never needs them, and compiling them would delay every start of the proxy.
     */
    private static final class Patterns {
        static final Pattern PORT = Pattern.compile(
                "(?:(?:[0-9.]+|\\[[0-9A-Fa-f:]+]):)?\\d{1,5}(?:-\\d{1,5})?(?::\\d{1,5}(?:-\\d{1,5})?)?(?:/(?:tcp|udp|sctp))?");
        static final Pattern ENDS_WITH_SCHEME = Pattern.compile("(?i)(?:.*[\\s:])?(?:bearer|basic)\\s*");
        static final Pattern HEADER_NAME_ALONE = Pattern.compile("\\s*([A-Za-z0-9_-]+)\\s*:\\s*");
        static final Pattern HEADER = Pattern.compile("(\\s*)([A-Za-z0-9_-]+)(\\s*:\\s*)(\\S.*)", Pattern.DOTALL);
        static final Pattern URL_USER = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\\s]+@");
        static final Pattern PAIR = Pattern.compile(
                "(^|[?&;,\\s])([A-Za-z_][A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)*)(\\s*=\\s*)([^&;,#\\s]*)");
        static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer\\s+)[^\\s,;\"']+|\\b(basic\\s+)[A-Za-z0-9+/]{8,}={0,2}");
    }

    /** What an argument says about the one after it. */
    private enum Next {
        ANY, SECRET, PASSWORD_OR_PORT, TOKEN
    }

    private CommandRedactor() {
    }

    /** The command with every credential-looking value replaced. */
    public static List<String> redact(List<String> argv) {
        List<String> out = new ArrayList<>(argv.size());
        Next next = Next.ANY;
        for (String arg : argv) {
            boolean isValue = switch (next) {
                case ANY -> false;
                case SECRET -> !arg.startsWith("--");
                case PASSWORD_OR_PORT -> !arg.startsWith("-") && !Patterns.PORT.matcher(arg).matches();
                case TOKEN -> !arg.startsWith("--");
            };
            if (next == Next.TOKEN && isScheme(arg)) {
                // "Authorization:" "Bearer" "abc": the token is the argument after the scheme.
                out.add(arg);
                continue;
            }
            if (isValue) {
                out.add(REDACTED);
                next = Next.ANY;
                continue;
            }
            if (isAttachedPassword(arg)) {
                out.add("-p" + REDACTED);
                next = Next.ANY;
            } else {
                out.add(redactArgument(arg));
                next = announces(arg);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Whether {@code text} holds a token recognisable by its form ({@link Shape#KNOWN_TOKEN}):
     * such text must not be shown, whatever it was given as.
     */
    public static boolean looksLikeToken(String text) {
        return KnownTokens.in(text);
    }

    /**
     * Whether a flag's, variable's or header's name says it holds a credential: it contains
     * one of {@link #SENSITIVE}, or has one of {@link #SENSITIVE_WORDS} as a whole word.
     * Leading dashes are ignored; case is ignored.
     */
    public static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String word : SENSITIVE) {
            if (lower.contains(word)) {
                return true;
            }
        }
        int start = 0;
        for (int i = 0; i <= lower.length(); i++) {
            if (i == lower.length() || !isWordChar(lower.charAt(i))) {
                if (i > start && SENSITIVE_WORDS.contains(lower.substring(start, i))) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    /** {@code Bearer} or {@code Basic} alone, any case. */
    private static boolean isScheme(String arg) {
        String t = arg.strip();
        return t.equalsIgnoreCase("bearer") || t.equalsIgnoreCase("basic");
    }

    private static Next announces(String arg) {
        if (arg.equals("-p")) {
            return Next.PASSWORD_OR_PORT;
        }
        if (arg.startsWith("-") && arg.indexOf('=') < 0 && isSecretName(arg)) {
            return Next.SECRET;
        }
        String lower = arg.toLowerCase(Locale.ROOT).strip();
        if ((lower.endsWith("bearer") || lower.endsWith("basic")) && Patterns.ENDS_WITH_SCHEME.matcher(arg).matches()) {
            return Next.TOKEN;
        }
        if (lower.endsWith(":")) {
            Matcher header = Patterns.HEADER_NAME_ALONE.matcher(arg);
            if (header.matches() && isSecretName(header.group(1))) {
                return Next.TOKEN;
            }
        }
        return Next.ANY;
    }

    /**
     * {@code -pX}: mysql's password form, unless the argument is a single-dash flag whose
     * name has a secret word as a whole word ({@code -password}, {@code -private-key}): that
     * is a flag whose value follows.
     */
    private static boolean isAttachedPassword(String arg) {
        if (!arg.startsWith("-p") || arg.length() <= 2 || arg.startsWith("--")) {
            return false;
        }
        for (int i = 1; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (i > 1 && ((c >= '0' && c <= '9') || c == '-')))) {
                return true;
            }
        }
        for (String word : arg.substring(1).split("-")) {
            if (SENSITIVE.contains(word) || SENSITIVE_WORDS.contains(word)) {
                return false;
            }
        }
        return true;
    }

    private static String redactArgument(String arg) {
        int eq = arg.indexOf('=');
        if (eq > 0) {
            String name = arg.substring(0, eq);
            if (isPlainName(name) && isSecretName(name)) {
                return name + "=" + REDACTED;
            }
            if (isPlainName(name)) {
                String value = redactHeader(arg.substring(eq + 1));
                if (value != null) {
                    return name + "=" + value;
                }
            }
        }
        String header = redactHeader(arg);
        if (header != null) {
            return header;
        }
        String s = arg;
        if (s.contains("://") && s.indexOf('@') >= 0) {
            Matcher m = Patterns.URL_USER.matcher(s);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, "");
                out.append(m.group(1)).append(REDACTED).append('@');
            }
            s = m.appendTail(out).toString();
        }
        if (s.indexOf('=') >= 0) {
            Matcher m = Patterns.PAIR.matcher(s);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                boolean query = m.group(1).equals("?") || m.group(1).equals("&");
                boolean secret = query ? UrlRedactor.looksLikeCredential(m.group(2)) : isSecretName(m.group(2));
                m.appendReplacement(out, "");
                out.append(secret && !m.group(4).isEmpty() ? m.group(1) + m.group(2) + m.group(3) + REDACTED : m.group());
            }
            s = m.appendTail(out).toString();
        }
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.contains("bearer") || lower.contains("basic")) {
            Matcher m = Patterns.BEARER.matcher(s);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, "");
                out.append(m.group(1) != null ? m.group(1) : m.group(2)).append(REDACTED);
            }
            s = m.appendTail(out).toString();
        }
        return KnownTokens.redact(s, REDACTED);
    }

    /** {@code Name: <redacted>} when {@code text} is a header line with a secret-looking name, else null. */
    private static String redactHeader(String text) {
        if (text.indexOf(':') < 0) {
            return null;
        }
        Matcher m = Patterns.HEADER.matcher(text);
        // "Authorization: Bearer" alone holds no secret: the token is the next argument.
        if (m.matches() && isSecretName(m.group(2)) && !m.group(4).startsWith("//")
                && !isScheme(m.group(4))) {
            return m.group(1) + m.group(2) + m.group(3) + REDACTED;
        }
        return null;
    }

    /** A flag or variable name: dashes, letters, digits, {@code _} and {@code .}, nothing else. */
    private static boolean isPlainName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '-' || c == '_' || c == '.' || Character.isLetterOrDigit(c))) {
                return false;
            }
        }
        return true;
    }
}
