package dev.stretto.proxy;

import dev.stretto.proxy.record.CommandRedactor;
import java.util.List;

/**
 * Which server a session proxies. A sealed family, so that every place that turns a
 * specification into a running {@link dev.stretto.proxy.upstream.Upstream} (see
 * {@code Proxy}) has to handle each kind; a new kind (a Streamable HTTP endpoint) is added
 * here as another record.
 */
public sealed interface UpstreamSpec {

    /**
     * What the session log's header records as {@code server_command}: the command with
     * credential-looking values replaced by {@code <redacted>}, or for a URL a one-element
     * list holding it without credentials. Never contains a secret the proxy can recognise.
     */
    List<String> loggedCommand();

    /**
     * A server started as a child process on stdio. The command is looked up on the
     * {@code PATH} the child inherits; the child inherits the proxy's environment and
     * stderr.
     *
     * @param argv the program and its arguments; not empty
     */
    record Command(List<String> argv) implements UpstreamSpec {

        public Command {
            argv = List.copyOf(argv);
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("the server command is empty");
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
    }
}
