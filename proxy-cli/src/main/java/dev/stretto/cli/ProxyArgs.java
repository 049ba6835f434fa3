package dev.stretto.cli;

import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.Redaction;
import dev.stretto.proxy.UpstreamSpec;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses {@code stretto-proxy}'s arguments. Options take their value as the next argument or
 * after {@code =}; the server is either the command after {@code --} or {@code --upstream URL}
 * (with any number of {@code --upstream-header NAME=VAR}). Everything wrong with the
 * arguments comes back as one {@link Invalid} message saying what is wrong. The environment
 * is not read here (see {@link ServerChoice#spec}).
 */
final class ProxyArgs {

    /** The log levels {@code --log-level} and {@code STRETTO_LOG_LEVEL} accept. */
    static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

    private static final String UPSTREAM_HEADER = "--upstream-header";

    private static final String RECORD_SYNC = "--record-sync";

    /** The policy for any server: read when the session starts ({@code PolicySetup}). */
    static final String POLICY = "--policy";

    /** Who answers the System-One questions of a flow's arbiter and of the judge. */
    private static final List<String> ORACLE_OPTIONS = List.of("--oracle", "--oracle-cache");

    // After the lists it is made of.
    private static final Set<String> WITH_VALUE = withValue();

    /** The switches, which take no value: --record-sync, and active mode's. */
    private static final Set<String> FLAGS = flags();

    /** What an environment variable's name may be: what a POSIX shell can set. */
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static final String WHICH_SERVER = "give the server as -- SERVER_COMMAND... (e.g. stretto-proxy -- npx -y"
            + " some-mcp-server) or as --upstream URL";

    /** What the arguments ask for. */
    sealed interface Parsed {
    }

    /** Run a session. */
    record Run(ProxyOptions options) implements Parsed {
    }

    /** Serve hosts over HTTP ({@code --listen}), a session of these options for each. */
    record Listen(ProxyOptions options, ListenOptions listen) implements Parsed {
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

    private static Set<String> flags() {
        Set<String> names = new HashSet<>(Set.of(RECORD_SYNC, "--guards", "--commit", FlowArgs.SHADOW, JudgeArgs.SHADOW));
        names.addAll(OAuthArgs.FLAGS);
        return Set.copyOf(names);
    }

    private static Set<String> withValue() {
        Set<String> names = new HashSet<>(Set.of("--record", "--domain", "--agent-model", "--retain-days",
                "--log-level", "--shutdown-grace", "--upstream", UPSTREAM_HEADER, "--context", FlowArgs.TOOLS, POLICY));
        names.addAll(FlowArgs.WITH_VALUE);
        names.addAll(JudgeArgs.WITH_VALUE);
        names.addAll(ORACLE_OPTIONS);
        names.addAll(OAuthArgs.WITH_VALUE);
        names.addAll(ListenArgs.WITH_VALUE);
        names.add(ListenArgs.ORIGIN);
        return Set.copyOf(names);
    }

    /** Whether {@code option} takes a value (as the next argument or after {@code =}). */
    static boolean takesValue(String option) {
        return WITH_VALUE.contains(option);
    }

    static Parsed parse(List<String> args) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        List<String> headerArgs = new ArrayList<>();
        List<String> flowTools = new ArrayList<>();
        List<String> origins = new ArrayList<>();
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
            if (FLAGS.contains(name)) {
                if (value != null) {
                    return new Invalid(name + " takes no value");
                }
                if (!flags.add(name)) {
                    return new Invalid(name + " is given more than once");
                }
                i++;
                continue;
            }
            if (!WITH_VALUE.contains(name)) {
                if (arg.startsWith("-")) {
                    return new Invalid("unknown option " + name);
                }
                return new Invalid("unexpected argument '" + arg + "' (put the server command after --, or use"
                        + " --upstream URL)");
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
            if (name.equals(UPSTREAM_HEADER)) {
                headerArgs.add(value);
            } else if (name.equals(FlowArgs.TOOLS)) {
                flowTools.add(value);
            } else if (name.equals(ListenArgs.ORIGIN)) {
                origins.add(value);
            } else if (values.putIfAbsent(name, value) != null) {
                return new Invalid(name + " is given more than once");
            }
            i++;
        }
        ServerChoice server;
        String url = values.get("--upstream");
        OAuthChoice oauth;
        try {
            oauth = OAuthArgs.parse(values, flags, url != null);
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
        if (url != null) {
            if (i < args.size()) {
                return new Invalid("give either --upstream URL or -- SERVER_COMMAND..., not both");
            }
            URI endpoint;
            try {
                endpoint = UpstreamSpec.Http.parseEndpoint(url);
            } catch (IllegalArgumentException e) {
                // The message shows the URL without its credentials.
                return new Invalid("--upstream: " + e.getMessage());
            }
            List<ServerChoice.HeaderRef> headers = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (String h : headerArgs) {
                ServerChoice.HeaderRef ref;
                try {
                    ref = headerRef(h);
                } catch (IllegalArgumentException e) {
                    return new Invalid(e.getMessage());
                }
                if (!names.add(ref.name().toLowerCase(Locale.ROOT))) {
                    return new Invalid(UPSTREAM_HEADER + ": header " + ref.name() + " is given more than once");
                }
                headers.add(ref);
            }
            String signIn = OAuthArgs.firstGiven(values, flags);
            if (signIn != null && (names.contains("authorization") || endpoint.getRawUserInfo() != null)) {
                return new Invalid(signIn + " is for signing in with OAuth, which the proxy does not do with an"
                        + (endpoint.getRawUserInfo() != null ? " URL that holds user info (sent as Basic authorization)"
                        : " Authorization header of " + UPSTREAM_HEADER + "'s own") + "; give one or the other");
            }
            server = new ServerChoice.Url(endpoint, headers, oauth);
        } else {
            if (!headerArgs.isEmpty()) {
                return new Invalid(UPSTREAM_HEADER + " is for an HTTP server; give --upstream URL too");
            }
            if (i >= args.size()) {
                return new Invalid("missing the server: " + WHICH_SERVER);
            }
            List<String> command = List.copyOf(args.subList(i + 1, args.size()));
            if (command.isEmpty()) {
                return new Invalid("missing the server command after --");
            }
            if (command.getFirst().isBlank()) {
                return new Invalid("the server command after -- starts with an empty program name");
            }
            server = new ServerChoice.Command(command);
        }

        Path record = null;
        if (values.containsKey("--record")) {
            try {
                record = Path.of(values.get("--record"));
            } catch (InvalidPathException e) {
                return new Invalid("--record: not a usable path: " + values.get("--record"));
            }
        }
        if (flags.contains(RECORD_SYNC) && record == null) {
            return new Invalid(RECORD_SYNC + " forces the --record log to disk before each line is forwarded; give"
                    + " --record DIR too");
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
        java.time.Duration shutdownGrace = null;
        String grace = values.get("--shutdown-grace");
        if (grace != null) {
            if (url != null) {
                return new Invalid("--shutdown-grace is for a server started with --; an HTTP session ends with a DELETE");
            }
            shutdownGrace = seconds(grace);
            if (shutdownGrace == null) {
                return new Invalid("--shutdown-grace needs a number of seconds from 0 to 86400 (e.g. 2 or 0.5), not '"
                        + grace + "'");
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
        ProxyOptions.FlowChoice flow;
        JudgeSettings judge;
        ProxyOptions.OracleChoice oracle;
        Path policy;
        try {
            policy = path(values, POLICY);
            flow = FlowArgs.parse(values, flags.contains(FlowArgs.SHADOW), flowTools);
            judge = JudgeArgs.parse(values, flags);
            oracle = oracle(values, flow != null || judge != null);
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
        ProxyOptions.Active active = null;
        if (flags.contains("--guards") || flags.contains("--commit") || values.containsKey("--context") || flow != null
                || judge != null || policy != null) {
            String domain = values.get("--domain");
            if (flags.contains("--guards") && domain == null) {
                return new Invalid("--guards needs --domain (" + ActiveSettings.guardedDomainNames() + ")");
            }
            if (flags.contains("--guards") && !ActiveSettings.guardedDomains().contains(domain)) {
                return new Invalid("no guards for " + domain);
            }
            Path context = null;
            if (values.containsKey("--context")) {
                try {
                    context = Path.of(values.get("--context"));
                } catch (InvalidPathException e) {
                    return new Invalid("--context: not a usable path: " + values.get("--context"));
                }
            }
            if (judge != null && !flags.contains("--guards")) {
                return new Invalid(JudgeArgs.JUDGE + " needs --guards: it judges the writes the guards check for the"
                        + " customer's confirmation");
            }
            if (judge != null && context == null) {
                return new Invalid(JudgeArgs.JUDGE + " needs --context FILE: it judges the customer's reply, which only"
                        + " the conversation holds");
            }
            active = new ProxyOptions.Active(flags.contains("--guards"), flags.contains("--commit"), context, flow, judge,
                    oracle, policy);
        }
        ProxyOptions options = new ProxyOptions(record, flags.contains(RECORD_SYNC), values.get("--domain"),
                values.get("--agent-model"), retainDays, level, shutdownGrace, server, active);
        ListenOptions listen;
        try {
            listen = ListenArgs.parse(values, origins);
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
        return listen != null ? new Listen(options, listen) : new Run(options);
    }

    /**
     * {@code --oracle} and {@code --oracle-cache}: for a served flow or the judge ({@code
     * used}); null when neither is.
     *
     * @throws IllegalArgumentException with the usage error
     */
    private static ProxyOptions.OracleChoice oracle(Map<String, String> values, boolean used) {
        if (!used) {
            for (String option : ORACLE_OPTIONS) {
                if (values.containsKey(option)) {
                    throw new IllegalArgumentException(option + " is for a served flow or the confirmation judge; give"
                            + " --flow FILE or --confirm-judge too");
                }
            }
            return null;
        }
        String mode = values.getOrDefault("--oracle", "jev");
        OracleMode named = OracleMode.named(mode).orElseThrow(() ->
                new IllegalArgumentException("--oracle takes jev, replay or mock, not '" + mode + "'"));
        return new ProxyOptions.OracleChoice(named, path(values, "--oracle-cache"));
    }

    /**
     * The path {@code option} gives, or null when it is not given.
     *
     * @throws IllegalArgumentException with the usage error when it is not a usable path
     */
    static Path path(Map<String, String> values, String option) {
        String v = values.get(option);
        if (v == null) {
            return null;
        }
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(option + ": not a usable path: " + v);
        }
    }

    /** Seconds, whole or decimal, from 0 to a day, to the millisecond; null when not that. */
    private static java.time.Duration seconds(String text) {
        if (!text.matches("[0-9]{1,5}(\\.[0-9]{1,3})?")) {
            return null;
        }
        long millis = new java.math.BigDecimal(text).movePointRight(3).longValueExact();
        return millis <= 86_400_000L ? java.time.Duration.ofMillis(millis) : null;
    }

    /**
     * One {@code --upstream-header NAME=VAR}. The messages repeat neither an argument without
     * {@code =} nor what follows the {@code =} unless it is a valid variable name, nor a name
     * with white space in it: a user who put the secret itself there should not find it on
     * stderr.
     */
    private static ServerChoice.HeaderRef headerRef(String arg) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        String shown = UPSTREAM_HEADER + (eq <= 0 ? "" : " " + name + "=...");
        if (eq <= 0) {
            throw new IllegalArgumentException(shown + ": needs NAME=VAR, a header name and the environment"
                    + " variable that holds its value (e.g. Authorization=MY_TOKEN)");
        }
        if (name.chars().anyMatch(Character::isWhitespace)) {
            // "Authorization: Basic dXNlcjpwYXNz=": a header written out in full, whose value
            // happens to hold an '='. Whatever precedes that '=' may be the secret.
            throw new IllegalArgumentException(UPSTREAM_HEADER + ": needs NAME=VAR, a header name and the environment"
                    + " variable that holds its value (e.g. Authorization=MY_TOKEN); what was given is not"
                    + " repeated, it may hold a secret");
        }
        String variable = arg.substring(eq + 1);
        if (!VARIABLE.matcher(variable).matches()) {
            throw new IllegalArgumentException(shown + ": after '=' comes the name of the environment variable"
                    + " that holds the value (letters, digits and _), not the value itself");
        }
        ServerChoice.HeaderRef ref = new ServerChoice.HeaderRef(name, variable);
        try {
            HeaderSpec.checkName(name);
        } catch (IllegalArgumentException e) {
            // HeaderSpec's message repeats the name, which here may be the token itself.
            throw new IllegalArgumentException(ref.shown() + ": " + (Redaction.looksLikeToken(name)
                    ? "not a valid HTTP header name" : e.getMessage()));
        }
        return ref;
    }
}
