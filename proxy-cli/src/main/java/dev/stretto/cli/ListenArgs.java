package dev.stretto.cli;

import dev.stretto.proxy.ListenConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code stretto-proxy}'s options for serving hosts over HTTP, checked: {@code --listen
 * HOST:PORT} and what goes with it. Every one of them but {@code --listen} needs {@code
 * --listen}; a value that is not one the option takes is an {@link IllegalArgumentException}
 * whose message is the usage error.
 */
final class ListenArgs {

    static final String LISTEN = "--listen";
    static final String TOKEN_FILE = "--listen-token-file";
    static final String IDLE = "--listen-idle";
    static final String MAX_SESSIONS = "--listen-max-sessions";
    /** Repeatable: an origin whose pages may use the listener. */
    static final String ORIGIN = "--listen-origin";

    /** The listen options that take a value, {@code --listen-origin} (repeatable) aside. */
    static final List<String> WITH_VALUE = List.of(LISTEN, TOKEN_FILE, IDLE, MAX_SESSIONS);

    // HOST:PORT, [IPv6]:PORT, or a PORT alone (loopback).
    private static final Pattern ADDRESS = Pattern.compile("(?:(\\[[0-9A-Fa-f:.]+\\]|[^:\\[\\]]+):)?([0-9]{1,5})");
    private static final Pattern MINUTES = Pattern.compile("[0-9]{1,6}(\\.[0-9]{1,3})?");

    private ListenArgs() {
    }

    /**
     * The listener's options, or null when {@code --listen} is not given.
     *
     * @param values  the options with a value, by name
     * @param origins the values of every {@code --listen-origin}
     * @throws IllegalArgumentException with the usage error
     */
    static ListenOptions parse(Map<String, String> values, List<String> origins) {
        String address = values.get(LISTEN);
        if (address == null) {
            for (String option : WITH_VALUE) {
                if (values.containsKey(option)) {
                    throw new IllegalArgumentException(option + " is for serving hosts over HTTP; give --listen"
                            + " HOST:PORT too");
                }
            }
            if (!origins.isEmpty()) {
                throw new IllegalArgumentException(ORIGIN + " is for serving hosts over HTTP; give --listen HOST:PORT"
                        + " too");
            }
            return null;
        }
        Matcher m = ADDRESS.matcher(address);
        if (!m.matches() || Integer.parseInt(m.group(2)) > 65535) {
            throw new IllegalArgumentException(LISTEN + " needs HOST:PORT (e.g. 127.0.0.1:8080, [::1]:8080, or a port"
                    + " alone for 127.0.0.1), not '" + address + "'");
        }
        String host = m.group(1) == null ? "127.0.0.1" : m.group(1);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        Path tokenFile = ProxyArgs.path(values, TOKEN_FILE);
        Duration idle = ListenConfig.DEFAULT_IDLE;
        String minutes = values.get(IDLE);
        if (minutes != null) {
            if (!MINUTES.matcher(minutes).matches()) {
                throw new IllegalArgumentException(IDLE + " needs a number of minutes, 0 or more (e.g. 240 or 0.5; 0"
                        + " keeps idle sessions), not '" + minutes + "'");
            }
            idle = Duration.ofMillis(new BigDecimal(minutes).multiply(BigDecimal.valueOf(60_000)).longValue());
        }
        List<String> normalized = new ArrayList<>();
        for (String origin : origins) {
            try {
                normalized.add(ListenConfig.origin(origin));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(ORIGIN + ": " + e.getMessage());
            }
        }
        int maxSessions = ListenConfig.Limits.DEFAULT.maxSessions();
        String max = values.get(MAX_SESSIONS);
        if (max != null) {
            try {
                maxSessions = Integer.parseInt(max);
            } catch (NumberFormatException e) {
                maxSessions = 0;
            }
            if (maxSessions < 1) {
                throw new IllegalArgumentException(MAX_SESSIONS + " needs a whole number of sessions, 1 or more, not '"
                        + max + "'");
            }
        }
        return new ListenOptions(host, Integer.parseInt(m.group(2)), tokenFile, idle, normalized, maxSessions);
    }
}
