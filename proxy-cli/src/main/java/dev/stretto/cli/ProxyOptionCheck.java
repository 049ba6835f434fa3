package dev.stretto.cli;

import java.util.List;
import java.util.Optional;

/**
 * stretto-proxy's own argument check, for commands that write a proxy command line for later
 * ({@code stretto init}): an entry whose arguments the proxy would refuse is refused when it
 * is written, not when a host starts it. Nothing here reads the environment or a file.
 */
public final class ProxyOptionCheck {

    private ProxyOptionCheck() {
    }

    /**
     * What stretto-proxy would say is wrong with {@code args} (everything after the program's
     * name), or empty when it would run a session with them.
     */
    public static Optional<String> problem(List<String> args) {
        return switch (ProxyArgs.parse(args)) {
            case ProxyArgs.Run r -> Optional.empty();
            case ProxyArgs.Listen l -> Optional.of("--listen serves hosts over HTTP, and a host's entry starts the"
                    + " proxy on stdio; run the listener on its own and give the host its URL");
            case ProxyArgs.Invalid(String message) -> Optional.of(message);
            case ProxyArgs.Help h -> Optional.of("--help is not an option for a session");
            case ProxyArgs.Version v -> Optional.of("--version is not an option for a session");
        };
    }

    /** Whether the proxy's option {@code name} takes a value (the next argument, or after {@code =}). */
    public static boolean takesValue(String name) {
        return ProxyArgs.takesValue(name);
    }
}
