package dev.stretto.cli.init;

import dev.stretto.cli.ProxyOptionCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code stretto init}'s command line, parsed: the host, what to do (an entry for a new server,
 * {@code --wrap}, {@code --unwrap}), init's own options and the proxy's. Everything wrong
 * comes back as a {@link Usage} with one line saying what.
 *
 * @param names        the servers: the one NAME of a new entry, or those of --wrap and --unwrap
 * @param proxyOptions the proxy's options as they go into the entry (relative paths made absolute)
 * @param command      the server command after {@code --}, or null when none was given
 */
record InitArgs(Host host, Mode mode, List<String> names, boolean all, String record, boolean noRecord,
                String domain, Map<String, String> env, boolean write, String config, String proxy,
                List<String> proxyOptions, List<String> command) {

    /** What the command line asks for. */
    enum Mode {
        /** Print (or with --write, write) the entry of a new server. */
        ENTRY,
        WRAP,
        UNWRAP
    }

    /** A command line that cannot be run as written. */
    static final class Usage extends Exception {
        Usage(String message) {
            super(message, null, false, false);
        }
    }

    /** What a server's name may be: it names a directory of logs and a TOML key too. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** The proxy's options whose value is a path, made absolute in the entry. */
    private static final Set<String> PATHS = Set.of("--record", "--context", "--flow", "--flow-log", "--oracle-cache",
            "--confirm-log");

    private static final Set<String> WITH_VALUE = Set.of("--record", "--domain", "--env", "--config", "--proxy");

    /** Whether the arguments after {@code init} ask for the help. */
    static boolean helpAsked(List<String> args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("-h") || a.equals("--help")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The arguments after {@code init}.
     *
     * @param resolve makes a relative path absolute (against the working directory)
     */
    static InitArgs parse(List<String> args, java.util.function.UnaryOperator<String> resolve) throws Usage {
        if (args.isEmpty()) {
            throw new Usage("give the host and the server's name (hosts: " + Host.names() + ")");
        }
        Host host = Host.named(args.getFirst()).orElseThrow(() -> new Usage(args.getFirst().startsWith("-")
                ? "the host comes first (hosts: " + Host.names() + ")"
                : "no host '" + args.getFirst() + "'; the hosts are " + Host.names()));
        Mode mode = Mode.ENTRY;
        List<String> words = new ArrayList<>();
        boolean all = false;
        boolean noRecord = false;
        boolean write = false;
        String record = null;
        String domain = null;
        String config = null;
        String proxy = null;
        Map<String, String> env = new LinkedHashMap<>();
        List<String> proxyOptions = new ArrayList<>();
        List<String> command = null;
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                command = List.copyOf(args.subList(i + 1, args.size()));
                break;
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            boolean ours = WITH_VALUE.contains(name);
            if ((ours || ProxyOptionCheck.takesValue(name)) && value == null) {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    throw new Usage(name + " needs a value");
                }
                value = args.get(++i);
            }
            if (ours && value.isEmpty()) {
                throw new Usage(name + " needs a value");
            }
            switch (name) {
                case "--record" -> record = once(name, record, path(value, resolve));
                case "--domain" -> domain = once(name, domain, value);
                case "--config" -> config = once(name, config, value);
                case "--proxy" -> proxy = once(name, proxy, resolve.apply(value));
                case "--env" -> {
                    int at = value.indexOf('=');
                    String key = at < 0 ? value : value.substring(0, at);
                    if (at < 0 || !VARIABLE.matcher(key).matches()) {
                        throw new Usage("--env needs KEY=VALUE, KEY a variable's name (letters, digits and _), not '"
                                + (at < 0 ? "..." : key) + "'");
                    }
                    if (env.putIfAbsent(key, value.substring(at + 1)) != null) {
                        throw new Usage("--env " + key + " is given more than once");
                    }
                }
                case "--no-record" -> noRecord = flag(name, value, noRecord);
                case "--write" -> write = flag(name, value, write);
                case "--all" -> all = flag(name, value, all);
                case "--wrap", "--unwrap" -> {
                    flag(name, value, false);
                    if (mode != Mode.ENTRY) {
                        throw new Usage("give --wrap or --unwrap, once");
                    }
                    mode = name.equals("--wrap") ? Mode.WRAP : Mode.UNWRAP;
                }
                default -> {
                    if (!arg.startsWith("-")) {
                        words.add(arg);
                    } else if (value != null) {
                        proxyOptions.add(name);
                        proxyOptions.add(PATHS.contains(name) ? path(value, resolve) : value);
                    } else {
                        proxyOptions.add(arg);
                    }
                }
            }
        }
        if (record != null && noRecord) {
            throw new Usage("give --record DIR or --no-record, not both");
        }
        switch (mode) {
            case ENTRY -> {
                if (words.isEmpty()) {
                    throw new Usage("give the server's name after the host (stretto init " + host.id()
                            + " NAME ... -- SERVER_COMMAND...)");
                }
                if (words.size() > 1) {
                    throw new Usage("unexpected argument '" + words.get(1) + "' (the server command goes after --)");
                }
                if (all) {
                    throw new Usage("--all goes with --wrap or --unwrap");
                }
                if (config != null && !write) {
                    throw new Usage("--config names the file --write writes; give --write too, or leave --config out"
                            + " to print the entry");
                }
            }
            case WRAP, UNWRAP -> {
                String option = mode == Mode.WRAP ? "--wrap" : "--unwrap";
                if (command != null) {
                    throw new Usage(option + " takes the servers from the host's file; no command after --");
                }
                if (!env.isEmpty()) {
                    throw new Usage("--env is for a new entry; " + option + " keeps each server's env");
                }
                if (words.isEmpty() == !all) {
                    throw new Usage(option + " needs the servers' names, or --all (not both)");
                }
                if (mode == Mode.UNWRAP && (record != null || noRecord || domain != null || !proxyOptions.isEmpty())) {
                    throw new Usage("--unwrap takes no proxy options: it gives the entries back as they were");
                }
            }
        }
        for (String w : words) {
            if (mode == Mode.ENTRY && !NAME.matcher(w).matches()) {
                throw new Usage("the server's name '" + w + "' may hold letters, digits, '.', '_' and '-', and starts"
                        + " with a letter or digit");
            }
        }
        if (command != null && !command.isEmpty()) {
            List<String> c = new ArrayList<>(command);
            String program = c.getFirst();
            if (program.contains("/") && !program.startsWith("/") && !program.startsWith("~")) {
                c.set(0, resolve.apply(program));
            }
            command = List.copyOf(c);
        }
        return new InitArgs(host, mode, List.copyOf(words), all, record, noRecord, domain, java.util.Collections.unmodifiableMap(env), write,
                config, proxy, List.copyOf(proxyOptions), command);
    }

    private static String path(String value, java.util.function.UnaryOperator<String> resolve) {
        return value.startsWith("/") || value.startsWith("~") ? value : resolve.apply(value);
    }

    private static String once(String name, String old, String value) throws Usage {
        if (old != null) {
            throw new Usage(name + " is given more than once");
        }
        return value;
    }

    private static boolean flag(String name, String value, boolean old) throws Usage {
        if (value != null) {
            throw new Usage(name + " takes no value");
        }
        if (old) {
            throw new Usage(name + " is given more than once");
        }
        return true;
    }
}
