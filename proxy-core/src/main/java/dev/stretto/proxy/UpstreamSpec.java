package dev.stretto.proxy;

import dev.stretto.proxy.http.HeaderSpec;
import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.http.Secrets;
import dev.stretto.proxy.record.CommandRedactor;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which server a session proxies. A sealed family, so that every place that turns a
 * specification into a running {@link dev.stretto.proxy.upstream.Upstream} (see
 * {@code Proxy}) has to handle each kind: a child process on stdio ({@link Command}) or a
 * Streamable HTTP endpoint ({@link Http}).
 */
public sealed interface UpstreamSpec {

    /**
     * What the session log's header records as {@code server_command}: the command with
     * credential-looking values replaced by {@code <redacted>}, or for a URL a one-element
     * list holding it without credentials. Never contains a secret the proxy can recognise.
     */
    List<String> loggedCommand();

    /**
     * Secret values the proxy itself sends to this server (header values, URL credentials),
     * which the session log must not hold even when the server echoes them back.
     */
    List<String> secretValues();

    /**
     * A server started as a child process on stdio. The command is looked up on the
     * {@code PATH} the child inherits; the child inherits the proxy's environment and
     * stderr.
     *
     * @param argv the program and its arguments; not empty, and the program's name not blank
     */
    record Command(List<String> argv) implements UpstreamSpec {

        /** @throws IllegalArgumentException when {@code argv} is empty or its program name blank */
        public Command {
            argv = List.copyOf(argv);
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("the server command is empty");
            }
            if (argv.getFirst().isBlank()) {
                throw new IllegalArgumentException("the server command's program name is empty");
            }
        }

        /** A command from its words. */
        public static Command of(String... argv) {
            return new Command(List.of(argv));
        }

        @Override
        public List<String> loggedCommand() {
            return CommandRedactor.redact(argv);
        }

        /** None: the proxy sends a child nothing but the host's lines. */
        @Override
        public List<String> secretValues() {
            return List.of();
        }
    }

    /**
     * A server that is a Streamable HTTP endpoint (MCP revisions 2025-06-18 and 2025-11-25).
     * The session POSTs each line from the host to it; see {@link HttpUpstream}.
     *
     * <p>The header values are secrets: {@link #toString()} shows the URL's log form and the
     * header names only, and the log header records only {@link #loggedCommand()}.
     *
     * @param endpoint the MCP endpoint, an absolute http(s) URL with a host (parse the text of
     *                 {@code --upstream} with {@link HttpUpstream#parseEndpoint(String)}); user
     *                 info in it is sent as Basic authorization unless a header gives
     *                 {@code Authorization}
     * @param headers  extra headers sent on every request, no name twice (ignoring case)
     */
    record Http(URI endpoint, List<HeaderSpec> headers) implements UpstreamSpec {

        /**
         * @throws IllegalArgumentException when the endpoint is not an http(s) URL with a host,
         *                                  or a header name is given twice; the message shows
         *                                  neither header values nor the URL's credentials
         */
        public Http {
            endpoint = HttpUpstream.checkEndpoint(endpoint);
            headers = List.copyOf(headers);
            Set<String> names = new HashSet<>();
            for (HeaderSpec h : headers) {
                if (!names.add(h.name().toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("header " + h.name() + " is given more than once");
                }
            }
        }

        /** An endpoint without extra headers. */
        public static Http of(URI endpoint) {
            return new Http(endpoint, List.of());
        }

        /** The URL without user info, fragment and credential-looking query values. */
        @Override
        public List<String> loggedCommand() {
            return List.of(HttpUpstream.logForm(endpoint));
        }

        @Override
        public List<String> secretValues() {
            return Secrets.of(endpoint, headers);
        }

        /** The URL's log form and the header names; never a header value or a URL credential. */
        @Override
        public String toString() {
            return "Http[endpoint=" + HttpUpstream.logForm(endpoint) + ", headers="
                    + headers.stream().map(HeaderSpec::name).toList() + "]";
        }
    }
}
