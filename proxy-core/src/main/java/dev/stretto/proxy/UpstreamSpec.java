package dev.stretto.proxy;

import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.redact.CommandRedactor;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which server a session proxies. A sealed family, so that every place that turns a
 * specification into a running upstream has to handle each kind: a child process on stdio
 * ({@link Command}), a Streamable HTTP endpoint ({@link Http}), or a server in the same JVM
 * reached through a pair of streams ({@link Streams}).
 */
public sealed interface UpstreamSpec {

    /**
     * What the session log's header records as {@code server_command}: the command with
     * credential-looking values replaced by {@code <redacted>}, or for a URL a one-element
     * list holding it without credentials. Never contains a secret the proxy can recognise.
     *
     * @return the command as the log records it
     */
    List<String> loggedCommand();

    /**
     * Secret values the proxy itself sends to this server (header values, URL credentials),
     * which the session log must not hold even when the server echoes them back.
     *
     * @return the values, none when the proxy sends none
     */
    List<String> secretValues();

    /**
     * A server started as a child process on stdio: its stdin and stdout are the session's.
     * Unless set otherwise, it inherits the proxy's environment, working directory and stderr;
     * a session with a {@link Subreaper} adds the server's mark to its environment ({@code
     * STRETTO_SERVER_TREE}).
     *
     * <pre>{@code
     * UpstreamSpec.Command.of("npx", "-y", "some-mcp-server")
     *         .withEnvironment(Map.of("SOME_API_KEY", key))   // added to the proxy's environment
     *         .withDirectory(workDir)
     *         .withStderr(ServerStderr.appendTo(logs.resolve("server.err")));
     * }</pre>
     *
     * @param argv        the program and its arguments; not empty, and the program's name not
     *                    blank. A program without a {@code /} is looked up on the proxy's {@code
     *                    PATH} (as the JDK does it), not on one given in {@code environment}; one
     *                    with a relative path is found from {@code directory}.
     * @param environment variables added to the environment the child inherits from the proxy,
     *                    each replacing an inherited one of the same name (there is no way to
     *                    remove one: give the program a wrapper for that). Values are never
     *                    logged, and those of variables whose names look like credentials
     *                    ({@code API_KEY}, {@code GITHUB_TOKEN}, ...) are kept out of the log
     *                    even when the server echoes them.
     * @param directory   the child's working directory, or null for the proxy's own; it must
     *                    exist when the session starts
     * @param stderr      where the child's stderr goes
     */
    record Command(List<String> argv, Map<String, String> environment, Path directory, ServerStderr stderr)
            implements UpstreamSpec {

        /**
         * Checks the command.
         *
         * @throws IllegalArgumentException when {@code argv} is empty or its program name blank,
         *                                  or a variable's name is empty or holds {@code =} or
         *                                  NUL, or its value holds NUL (the message shows names only)
         */
        public Command {
            argv = List.copyOf(argv);
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("the server command is empty");
            }
            if (argv.getFirst().isBlank()) {
                throw new IllegalArgumentException("the server command's program name is empty");
            }
            // Sorted, so that toString and equality do not depend on the caller's map.
            environment = Collections.unmodifiableMap(new TreeMap<>(environment));
            for (Map.Entry<String, String> e : environment.entrySet()) {
                String name = e.getKey();
                if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                    throw new IllegalArgumentException("'" + name.replace('\0', '?')
                            + "' cannot be the name of an environment variable");
                }
                Objects.requireNonNull(e.getValue(), "the value of environment variable " + name);
                if (e.getValue().indexOf('\0') >= 0) {
                    throw new IllegalArgumentException("the value of environment variable " + name + " contains NUL");
                }
            }
            Objects.requireNonNull(stderr, "stderr");
        }

        /**
         * A command that inherits the proxy's environment, working directory and stderr.
         *
         * @param argv the program and its arguments
         */
        public Command(List<String> argv) {
            this(argv, Map.of(), null, ServerStderr.inherit());
        }

        /**
         * A command from its words, inheriting the proxy's environment, working directory and stderr.
         *
         * @param argv the program and its arguments
         * @return the command
         */
        public static Command of(String... argv) {
            return new Command(List.of(argv));
        }

        /**
         * This command with {@code environment} added to what the child inherits.
         *
         * @param environment the variables, replacing those given before
         * @return the command
         */
        public Command withEnvironment(Map<String, String> environment) {
            return new Command(argv, environment, directory, stderr);
        }

        /**
         * This command run in {@code directory}.
         *
         * @param directory the working directory, or null for the proxy's own
         * @return the command
         */
        public Command withDirectory(Path directory) {
            return new Command(argv, environment, directory, stderr);
        }

        /**
         * This command with its stderr going to {@code stderr}.
         *
         * @param stderr where the child's stderr goes
         * @return the command
         */
        public Command withStderr(ServerStderr stderr) {
            return new Command(argv, environment, directory, stderr);
        }

        @Override
        public List<String> loggedCommand() {
            return CommandRedactor.redact(argv);
        }

        /**
         * The values of the variables in {@link #environment()} whose names look like
         * credentials: the proxy hands them to the server, and the log must not hold them.
         */
        @Override
        public List<String> secretValues() {
            List<String> secrets = new ArrayList<>();
            for (Map.Entry<String, String> e : environment.entrySet()) {
                if (CommandRedactor.isSecretName(e.getKey())) {
                    secrets.add(e.getValue());
                }
            }
            return secrets;
        }

        /** The command as the log header has it, the names of the variables (no values), the directory and stderr. */
        @Override
        public String toString() {
            return "Command[argv=" + loggedCommand() + ", environment=" + environment.keySet() + ", directory="
                    + directory + ", stderr=" + stderr + "]";
        }
    }

    /**
     * A server in the same JVM, reached through a pair of streams as a child is through its
     * stdin and stdout: every line the host writes goes to {@code toServer}, every line read
     * from {@code fromServer} goes to the host, byte for byte, recorded as a child's are.
     *
     * <p>Ending, as for a child, for what a stream can tell. The server has ended when its
     * output has: the end of {@code fromServer} (or a read of it that fails, which is reported
     * on stderr). That ends the session at once, even while the host's input is still open.
     * When the host closes its input, {@code toServer} is closed, and the server then has
     * {@link ShutdownTimings#grace()} to end its output; after that the session closes {@code
     * fromServer} and ends without the rest. A stream has no exit status: the session's is 0.
     * The session owns both streams from {@link Proxy#run} on, and closes both when it ends.
     *
     * <p>Streams of {@link java.nio.channels.Pipe}s suit best ({@link
     * java.nio.channels.Channels#newInputStream}, {@link java.nio.channels.Channels#newOutputStream}):
     * their reads and writes let virtual threads unmount, and closing them unblocks a read.
     * {@code fromServer} is read on a platform thread of the session's own, and {@code toServer}
     * written on a virtual thread; a write that blocks for good keeps the session from ending.
     *
     * @param name       names the server: the log header's {@code server_command} is {@code
     *                   [name]} (credential-looking values redacted, as for a command), and
     *                   messages name it
     * @param fromServer the server's output, which the proxy reads
     * @param toServer   the server's input, which the proxy writes
     */
    record Streams(String name, InputStream fromServer, OutputStream toServer) implements UpstreamSpec {

        /**
         * Checks the spec.
         *
         * @throws IllegalArgumentException when the name is blank
         */
        public Streams {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(fromServer, "fromServer");
            Objects.requireNonNull(toServer, "toServer");
            if (name.isBlank()) {
                throw new IllegalArgumentException("the in-process server's name is empty");
            }
        }

        /**
         * A server named {@code name} behind these streams.
         *
         * @param name       names the server in the log header and in messages
         * @param fromServer the server's output, which the proxy reads
         * @param toServer   the server's input, which the proxy writes
         * @return the spec
         */
        public static Streams of(String name, InputStream fromServer, OutputStream toServer) {
            return new Streams(name, fromServer, toServer);
        }

        /** {@code [name]}, redacted as a command would be. */
        @Override
        public List<String> loggedCommand() {
            return CommandRedactor.redact(List.of(name));
        }

        /** None: the proxy sends the server nothing but the host's lines. */
        @Override
        public List<String> secretValues() {
            return List.of();
        }
    }

    /**
     * A server that is a Streamable HTTP endpoint (MCP revisions 2025-06-18 and 2025-11-25).
     * The session POSTs each line from the host to it; see {@link HttpUpstream}. A server that
     * needs OAuth is signed in to as {@code oauth} says, unless a header or the URL's user info
     * gives an {@code Authorization} of its own.
     *
     * <p>The header values are secrets: {@link #toString()} shows the URL's log form and the
     * header names only, and the log header records only {@link #loggedCommand()}.
     *
     * @param endpoint the MCP endpoint, an absolute http(s) URL with a host (parse a URL's text
     *                 with {@link #parseEndpoint(String)}); user info in it is sent as Basic
     *                 authorization unless a header gives {@code Authorization}
     * @param headers  extra headers sent on every request, no name twice (ignoring case)
     * @param oauth    how to sign in when the server asks for it ({@link OAuthSettings#DEFAULT}:
     *                 as the spec says, through the system's browser, keeping tokens in {@code
     *                 ~/.stretto/auth}; {@link OAuthSettings#OFF}: never)
     */
    record Http(URI endpoint, List<HeaderSpec> headers, OAuthSettings oauth) implements UpstreamSpec {

        /**
         * Checks the spec.
         *
         * @throws IllegalArgumentException when the endpoint is not an http(s) URL with a host,
         *                                  or a header name is given twice; the message shows
         *                                  neither header values nor the URL's credentials
         */
        public Http {
            endpoint = HttpUpstream.checkEndpoint(endpoint);
            headers = List.copyOf(headers);
            Objects.requireNonNull(oauth, "oauth");
            Set<String> names = new HashSet<>();
            for (HeaderSpec h : headers) {
                if (!names.add(h.name().toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("header " + h.name() + " is given more than once");
                }
            }
        }

        /**
         * An endpoint with extra headers, signing in as {@link OAuthSettings#DEFAULT} says.
         *
         * @param endpoint the MCP endpoint
         * @param headers  extra headers sent on every request
         */
        public Http(URI endpoint, List<HeaderSpec> headers) {
            this(endpoint, headers, OAuthSettings.DEFAULT);
        }

        /**
         * An endpoint without extra headers, signing in as {@link OAuthSettings#DEFAULT} says.
         *
         * @param endpoint the MCP endpoint
         * @return the spec
         */
        public static Http of(URI endpoint) {
            return new Http(endpoint, List.of());
        }

        /**
         * This spec signing in as {@code oauth} says.
         *
         * @param oauth the settings
         * @return the spec
         */
        public Http withOAuth(OAuthSettings oauth) {
            return new Http(endpoint, headers, oauth);
        }

        /**
         * Parses the text of a URL (as {@code --upstream URL} gives it) into an endpoint this
         * spec accepts.
         *
         * @param text the URL as given
         * @return the endpoint
         * @throws IllegalArgumentException when it is not an absolute http(s) URL with a host;
         *                                  the message never shows user info or query values
         */
        public static URI parseEndpoint(String text) {
            return HttpUpstream.parseEndpoint(text);
        }

        /** The URL without user info, fragment and credential-looking query values. */
        @Override
        public List<String> loggedCommand() {
            return List.of(HttpUpstream.logForm(endpoint));
        }

        @Override
        public List<String> secretValues() {
            List<String> out = new ArrayList<>(HttpUpstream.secretValues(endpoint, headers));
            if (oauth.clientSecret() != null) {
                out.add(oauth.clientSecret());
            }
            return out;
        }

        /**
         * The URL's log form, the header names and the OAuth settings unless they are the
         * default; never a header value or a secret.
         */
        @Override
        public String toString() {
            return "Http[endpoint=" + HttpUpstream.logForm(endpoint) + ", headers="
                    + headers.stream().map(HeaderSpec::name).toList()
                    + (oauth.equals(OAuthSettings.DEFAULT) ? "" : ", oauth=" + oauth) + "]";
        }
    }
}
