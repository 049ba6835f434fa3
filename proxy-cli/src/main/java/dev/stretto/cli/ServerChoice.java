package dev.stretto.cli;

import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.Redaction;
import dev.stretto.proxy.UpstreamSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The server the arguments name: a command after {@code --}, or {@code --upstream URL} with
 * its {@code --upstream-header NAME=VAR} options. Header values are not part of the arguments:
 * {@link #spec} reads them from the environment, so a secret never sits on a command line.
 */
sealed interface ServerChoice {

    /**
     * The server as proxy-core's spec.
     *
     * @param env the proxy's environment, where header values are read
     * @throws UsageError when a header's variable is not set or its value cannot be sent; the
     *                    message names the header, and the variable when its name looks like
     *                    one (see {@link HeaderRef#variableShown()}), never a value
     */
    UpstreamSpec spec(Map<String, String> env) throws UsageError;

    /** {@code -- COMMAND...}: a child process on stdio. */
    record Command(List<String> argv) implements ServerChoice {

        public Command {
            argv = List.copyOf(argv);
        }

        @Override
        public UpstreamSpec spec(Map<String, String> env) {
            return new UpstreamSpec.Command(argv);
        }
    }

    /**
     * {@code --upstream URL}: a Streamable HTTP endpoint.
     *
     * @param endpoint the checked URL
     * @param headers  the {@code --upstream-header} options, in order
     * @param oauth    the {@code --oauth-*} options
     */
    record Url(URI endpoint, List<HeaderRef> headers, OAuthChoice oauth) implements ServerChoice {

        public Url {
            headers = List.copyOf(headers);
        }

        /** Without OAuth options. */
        Url(URI endpoint, List<HeaderRef> headers) {
            this(endpoint, headers, OAuthChoice.DEFAULT);
        }

        @Override
        public UpstreamSpec spec(Map<String, String> env) throws UsageError {
            List<HeaderSpec> resolved = new ArrayList<>(headers.size());
            for (HeaderRef h : headers) {
                String value = env.get(h.variable());
                if (value == null) {
                    throw new UsageError(h.shown() + ": " + (h.variableShown()
                            ? "the environment variable " + h.variable() + " is not set"
                            : "no environment variable of that name is set; after '=' comes the name of the variable"
                                    + " that holds the value, not the value itself (the name is not repeated: it"
                                    + " looks like a secret)"));
                }
                if (value.isEmpty()) {
                    throw new UsageError(h.shown() + ": the environment variable "
                            + (h.variableShown() ? h.variable() + " " : "") + "is empty");
                }
                try {
                    resolved.add(new HeaderSpec(h.name(), value));
                } catch (IllegalArgumentException e) {
                    // HeaderSpec's messages name the header, never the value.
                    throw new UsageError(h.shown() + ": " + e.getMessage());
                }
            }
            try {
                return new UpstreamSpec.Http(endpoint, resolved, oauth.settings(env));
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
        }
    }

    /**
     * One {@code --upstream-header NAME=VAR}: the header's name and the environment variable
     * that holds its value.
     */
    record HeaderRef(String name, String variable) {

        /** A variable's name as people write them, upper case; a token put there is not one. */
        private static final Pattern CONVENTIONAL = Pattern.compile("[A-Z][A-Z0-9_]*");

        /**
         * Whether messages may repeat the variable's name: users put the token itself where
         * the name belongs ({@code Authorization=ghp_...}), and stderr must not show it.
         */
        boolean variableShown() {
            return CONVENTIONAL.matcher(variable).matches() && !Redaction.looksLikeToken(variable);
        }

        /** The option as messages show it: {@code --upstream-header NAME=VAR}, or {@code NAME=...}. */
        String shown() {
            return "--upstream-header " + (Redaction.looksLikeToken(name) ? "..." : name) + "="
                    + (variableShown() ? variable : "...");
        }
    }

    /** A usage error found once the environment is known; exit status 2. */
    final class UsageError extends Exception {
        UsageError(String message) {
            super(message, null, false, false);
        }
    }
}
