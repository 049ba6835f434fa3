package dev.stretto.proxy.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Bearer challenge of a 401 or 403 ({@code WWW-Authenticate}, RFC 6750 section 3 and RFC
 * 9728 section 5.1): where the protected resource's metadata is, the scopes the server wants and
 * the error. Parsed as RFC 9110 has it: a header may hold several challenges, and each
 * parameter's value is a token or a quoted string with backslash escapes; the first Bearer
 * challenge counts. Anything else there is ignored.
 *
 * @param resourceMetadata the {@code resource_metadata} URL, or null
 * @param scopes           the {@code scope} the server asks for, none when it names none
 * @param error            the {@code error} code ({@code invalid_token}, {@code
 *                         insufficient_scope}, ...), or null
 */
record Challenge(URI resourceMetadata, List<String> scopes, String error) {

    static final Challenge NONE = new Challenge(null, List.of(), null);

    Challenge {
        scopes = List.copyOf(scopes);
    }

    boolean insufficientScope() {
        return "insufficient_scope".equals(error);
    }

    /** The first Bearer challenge among the header's values; {@link #NONE} when there is none. */
    static Challenge of(List<String> headerValues) {
        for (String value : headerValues) {
            Map<String, String> params = bearerParams(value);
            if (params != null) {
                URI metadata = null;
                String url = params.get("resource_metadata");
                if (url != null) {
                    try {
                        URI u = new URI(url.strip());
                        if (u.isAbsolute() && u.getHost() != null
                                && ("https".equalsIgnoreCase(u.getScheme()) || "http".equalsIgnoreCase(u.getScheme()))) {
                            metadata = u;
                        }
                    } catch (URISyntaxException ignored) {
                        // not a URL: as if it were not given
                    }
                }
                String scope = params.get("scope");
                List<String> scopes = scope == null ? List.of()
                        : Arrays.stream(scope.strip().split("\\s+")).filter(s -> !s.isEmpty()).toList();
                return new Challenge(metadata, scopes, params.get("error"));
            }
        }
        return NONE;
    }

    /** The parameters of the Bearer challenge in one header value, or null when it has none. */
    private static Map<String, String> bearerParams(String header) {
        Parser p = new Parser(header);
        Map<String, String> current = null;
        Map<String, String> bearer = null;
        while (!p.atEnd()) {
            p.skipSpaceAndCommas();
            String word = p.token();
            if (word.isEmpty()) {
                p.skipOne();
                continue;
            }
            p.skipSpace();
            if (p.peek() == '=') {
                // a parameter of the current challenge (or token68 '=' padding)
                p.skipOne();
                p.skipSpace();
                String value = p.peek() == '"' ? p.quoted() : p.token();
                if (current != null) {
                    current.putIfAbsent(word.toLowerCase(Locale.ROOT), value);
                }
            } else {
                // a new challenge's scheme
                if (bearer != null) {
                    return bearer;
                }
                current = new HashMap<>();
                if (word.equalsIgnoreCase("Bearer")) {
                    bearer = current;
                }
            }
        }
        return bearer;
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s == null ? "" : s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        char peek() {
            return atEnd() ? 0 : s.charAt(i);
        }

        void skipOne() {
            i++;
        }

        void skipSpace() {
            while (!atEnd() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        void skipSpaceAndCommas() {
            while (!atEnd() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == ',')) {
                i++;
            }
        }

        String token() {
            int start = i;
            while (!atEnd() && "\"(),/:;<=>?@[\\]{} \t".indexOf(s.charAt(i)) < 0 && s.charAt(i) > 0x20) {
                i++;
            }
            // a URL-ish unquoted value: take ':' and '/' too, up to a comma or space
            if (!atEnd() && (s.charAt(i) == ':' || s.charAt(i) == '/') && i > start) {
                while (!atEnd() && s.charAt(i) != ',' && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                    i++;
                }
            }
            return s.substring(start, i);
        }

        String quoted() {
            StringBuilder out = new StringBuilder();
            i++;
            while (!atEnd()) {
                char c = s.charAt(i++);
                if (c == '\\' && !atEnd()) {
                    out.append(s.charAt(i++));
                } else if (c == '"') {
                    break;
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }
}
