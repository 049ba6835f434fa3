package dev.stretto.demo;

import dev.stretto.demo.tau2.RetailDb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The demo server's command line, checked.
 *
 * @param world       the world to serve
 * @param hidden      tools left out of the listing and refused when called
 * @param hints       replaced annotation hints, by tool name
 * @param http        where to serve Streamable HTTP instead of stdio
 * @param requireAuth the exact {@code Authorization} header HTTP requests must carry
 * @param rugPulls    for each tool named, the description it has from the second {@code tools/list} on
 */
record DemoOptions(World world, Set<String> hidden, Map<String, Hint> hints,
                   Optional<InetSocketAddress> http, Optional<String> requireAuth, Map<String, String> rugPulls) {

    static final String USAGE = "usage: stretto-mcp-demo [--world echo|retail|tau2-retail [--db FILE]] [--hide TOOL] "
            + "[--hint TOOL=false|none] [--rug-pull TOOL=TEXT] [--http ADDR [--require-auth VALUE]]";

    /** What the command line asks for. */
    sealed interface Invocation {
    }

    record Help() implements Invocation {
    }

    record Version() implements Invocation {
    }

    record Serve(DemoOptions options) implements Invocation {
    }

    /** The command line is wrong; the message is one line for stderr. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** The tools this server offers, with {@link #hidden} and {@link #hints} applied. */
    ToolBox toolBox() {
        return new ToolBox(world, hidden, hints, rugPulls);
    }

    static Invocation parse(List<String> args) throws UsageException {
        String worldName = "echo";
        Optional<Path> db = Optional.empty();
        Set<String> hidden = new LinkedHashSet<>();
        Map<String, Hint> hints = new LinkedHashMap<>();
        Optional<InetSocketAddress> http = Optional.empty();
        Optional<String> auth = Optional.empty();
        Map<String, String> rugPulls = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String option = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (option) {
                case "--help", "-h" -> {
                    return new Help();
                }
                case "--version", "-V" -> {
                    return new Version();
                }
                case "--world", "--db", "--hide", "--hint", "--http", "--require-auth", "--rug-pull" -> {
                    String value;
                    if (inline != null) {
                        value = inline;
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        throw new UsageException(option + " needs a value");
                    }
                    switch (option) {
                        case "--world" -> {
                            if (!value.equals("tau2-retail") && World.named(value).isEmpty()) {
                                throw new UsageException("--world " + value
                                        + ": the worlds are echo, retail and tau2-retail");
                            }
                            worldName = value;
                        }
                        case "--db" -> db = Optional.of(Path.of(value));
                        case "--hide" -> hidden.add(value);
                        case "--hint" -> {
                            int sep = value.lastIndexOf('=');
                            if (sep <= 0) {
                                throw new UsageException("--hint " + value + ": expected TOOL=false or TOOL=none");
                            }
                            String hint = value.substring(sep + 1);
                            hints.put(value.substring(0, sep), switch (hint) {
                                case "false" -> Hint.WRITE;
                                case "none" -> Hint.NONE;
                                default -> throw new UsageException("--hint " + value
                                        + ": the hint is false (list the tool as a write) or none (no annotations)");
                            });
                        }
                        case "--http" -> http = Optional.of(address(value));
                        case "--require-auth" -> auth = Optional.of(value);
                        case "--rug-pull" -> {
                            int sep = value.indexOf('=');
                            if (sep <= 0) {
                                throw new UsageException("--rug-pull " + value + ": expected TOOL=DESCRIPTION");
                            }
                            rugPulls.put(value.substring(0, sep), value.substring(sep + 1));
                        }
                        default -> throw new IllegalStateException(option);
                    }
                }
                default -> throw new UsageException(arg.startsWith("-")
                        ? "unknown option " + arg
                        : "unexpected argument " + arg + " (the demo takes options only)");
            }
        }
        if (auth.isPresent() && http.isEmpty()) {
            throw new UsageException("--require-auth needs --http");
        }
        if (db.isPresent() && !worldName.equals("tau2-retail")) {
            throw new UsageException("--db needs --world tau2-retail (the only world with a database)");
        }
        World world = worldName.equals("tau2-retail") ? new Tau2RetailWorld(database(db))
                : World.named(worldName).orElseThrow();
        DemoOptions options = new DemoOptions(world, Set.copyOf(hidden), Map.copyOf(hints), http, auth,
                Map.copyOf(rugPulls));
        try {
            options.toolBox();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new Serve(options);
    }

    /** The database {@code --db} names, else the one the jar carries; a file that is not one is a usage error. */
    private static RetailDb database(Optional<Path> file) throws UsageException {
        if (file.isEmpty()) {
            return RetailDb.bundled();
        }
        try {
            return RetailDb.read(file.get());
        } catch (IOException e) {
            throw new UsageException("--db " + file.get() + ": cannot read it: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--db " + file.get() + ": " + e.getMessage());
        }
    }

    /** {@code HOST:PORT}, with an IPv6 host in brackets; port 0 picks a free one. */
    static InetSocketAddress address(String value) throws UsageException {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new UsageException("--http " + value + ": expected HOST:PORT, e.g. 127.0.0.1:0");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65_535 || host.isEmpty()) {
            throw new UsageException("--http " + value + ": expected HOST:PORT with a port from 0 to 65535");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new UsageException("--http " + value + ": cannot resolve host " + host);
        }
        return address;
    }
}
