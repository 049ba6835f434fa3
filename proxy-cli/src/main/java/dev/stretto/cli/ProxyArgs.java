package dev.stretto.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses {@code stretto-proxy}'s arguments. Options take their value as the next argument or
 * after {@code =}; the server command follows {@code --}. Everything wrong with the
 * arguments comes back as one {@link Invalid} message saying what is wrong.
 */
final class ProxyArgs {

    /** The log levels {@code --log-level} and {@code STRETTO_LOG_LEVEL} accept. */
    static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

    private static final Set<String> WITH_VALUE =
            Set.of("--record", "--domain", "--agent-model", "--retain-days", "--log-level");

    /** What the arguments ask for. */
    sealed interface Parsed {
    }

    /** Run a session. */
    record Run(ProxyOptions options) implements Parsed {
    }

    /** Print the usage text. */
    record Help() implements Parsed {
    }

    /** Print the version. */
    record Version() implements Parsed {
    }

    /** A usage error, described in one line. */
    record Invalid(String message) implements Parsed {
    }

    private ProxyArgs() {
    }

    static Parsed parse(List<String> args) {
        Map<String, String> values = new HashMap<>();
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                break;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (name) {
                case "--help", "-h" -> {
                    if (value != null) {
                        return new Invalid(name + " takes no value");
                    }
                    return new Help();
                }
                case "--version", "-V" -> {
                    if (value != null) {
                        return new Invalid(name + " takes no value");
                    }
                    return new Version();
                }
                default -> {
                }
            }
            if (!WITH_VALUE.contains(name)) {
                if (arg.startsWith("-")) {
                    return new Invalid("unknown option " + name);
                }
                return new Invalid("unexpected argument '" + arg + "' (put the server command after --)");
            }
            if (value == null) {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    return new Invalid(name + " needs a value");
                }
                value = args.get(++i);
            }
            if (value.isEmpty()) {
                return new Invalid(name + " needs a value");
            }
            if (values.putIfAbsent(name, value) != null) {
                return new Invalid(name + " is given more than once");
            }
            i++;
        }
        if (i >= args.size()) {
            return new Invalid("missing the server command (put it after --, e.g. stretto-proxy -- npx -y some-mcp-server)");
        }
        List<String> command = List.copyOf(args.subList(i + 1, args.size()));
        if (command.isEmpty()) {
            return new Invalid("missing the server command after --");
        }

        Path record = null;
        if (values.containsKey("--record")) {
            try {
                record = Path.of(values.get("--record"));
            } catch (InvalidPathException e) {
                return new Invalid("--record: not a usable path: " + values.get("--record"));
            }
        }
        Integer retainDays = null;
        String days = values.get("--retain-days");
        if (days != null) {
            try {
                retainDays = Integer.parseInt(days);
            } catch (NumberFormatException e) {
                retainDays = -1;
            }
            if (retainDays < 0) {
                return new Invalid("--retain-days needs a whole number of days (0 or more), not '" + days + "'");
            }
            if (record == null) {
                return new Invalid("--retain-days cleans the --record directory; give --record DIR too");
            }
        }
        String level = values.get("--log-level");
        if (level != null) {
            level = level.toLowerCase(Locale.ROOT);
            if (!LEVELS.contains(level)) {
                return new Invalid("--log-level must be one of trace, debug, info, warn, error, off; not '"
                        + values.get("--log-level") + "'");
            }
        }
        return new Run(new ProxyOptions(record, values.get("--domain"), values.get("--agent-model"), retainDays,
                level, command));
    }
}
