package dev.stretto.cli.init;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.cli.ProxyOptionCheck;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code stretto init}: the entry that runs a server through stretto-proxy, in an MCP host's
 * own format, printed or merged into the host's file; and {@code --wrap}/{@code --unwrap} of
 * the servers a host's file has. Config-file work only: it starts nothing and needs nothing of
 * the proxy's runtime.
 */
public final class InitCli {

    /** The command's name after {@code stretto}. */
    public static final String COMMAND = "init";

    /** Success, or nothing to change. */
    static final int OK = 0;
    /** A file was left as it is. */
    static final int REFUSED = 1;
    /** The command line is wrong. */
    static final int USAGE = 2;

    static final String HELP = """
            Usage: stretto init HOST NAME [OPTIONS] [PROXY_OPTIONS] -- SERVER_COMMAND...
                   stretto init HOST NAME [OPTIONS] [PROXY_OPTIONS] --upstream URL [--upstream-header NAME=VAR]...
                   stretto init HOST --wrap NAME...|--all [--config FILE] [--record DIR|--no-record] [PROXY_OPTIONS]
                   stretto init HOST --unwrap NAME...|--all [--config FILE]

            Prints the entry that runs the server NAME through stretto-proxy for the MCP host
            HOST, in the host's own format; with --write, puts it into the host's file. The
            entry runs this installation's stretto-proxy (its absolute path) with --record
            ~/.stretto/logs/NAME --domain NAME, then PROXY_OPTIONS, then the server: the
            command after --, or the HTTP server of --upstream URL. --wrap rewrites servers the
            host's file has already to run through stretto-proxy; --unwrap gives them back.

            Hosts, and the file --write writes (on Linux; on macOS):
              claude-desktop  ~/.config/Claude/claude_desktop_config.json;
                              ~/Library/Application Support/Claude/claude_desktop_config.json
              claude-code     .mcp.json in the current directory (the project's), on both; the
                              `claude mcp add` command line is printed too
              cursor          ~/.cursor/mcp.json, on both (a project's .cursor/mcp.json with
                              --config)
              vscode          .vscode/mcp.json in the current directory (the workspace's), on
                              both; the user's with --config: ~/.config/Code/User/mcp.json;
                              ~/Library/Application Support/Code/User/mcp.json (a settings.json
                              holds its servers under "mcp")
              windsurf        ~/.codeium/windsurf/mcp_config.json, on both
              codex           ~/.codex/config.toml, on both ($CODEX_HOME/config.toml when set)
              json            the plain {"mcpServers": ...} shape, for any other host; --write
                              needs --config

            Options:
              --record DIR      where the sessions are recorded (default ~/.stretto/logs/NAME)
              --no-record       record nothing
              --domain NAME     the logs' domain (default: the server's NAME)
              --env KEY=VALUE   put KEY=VALUE in the entry's env block, never in its args
                                (repeatable)
              --write           merge the entry into the host's file instead of printing it:
                                every other entry stays as it was, a copy of the file as it was
                                is made beside it first (FILE.YYYYMMDD-HHMMSS.bak), a missing
                                file is made; writing the same entry again changes nothing
              --config FILE     the file --write, --wrap and --unwrap work on, in place of the
                                host's usual one
              --proxy PATH      the stretto-proxy the entry runs (default: the one beside this
                                stretto)
              --wrap NAME...|--all
                                rewrite these servers of the host's file (or all of them) to
                                run through stretto-proxy: the command and its args go after
                                --; an HTTP server becomes --upstream URL, each literal header
                                value moved into the env block under a variable the entry
                                names; env and every other key stay; servers that run through
                                stretto-proxy already are left alone
              --unwrap NAME...|--all
                                give wrapped servers back exactly as they were (as recorded in
                                ~/.stretto/wrapped.json; one changed since, or written by
                                --write, from its stretto-proxy arguments); one with no record
                                there is left as it is
              -h, --help        show this help

            Any other option before -- or --upstream is stretto-proxy's (--guards, --agent-model
            MODEL, --flow FILE, ...: stretto-proxy --help), checked as the proxy checks it; a
            relative path in one is made absolute, as hosts start servers in a directory of
            their own.

            A file is left as it is, and the exit status is 1, when it is not valid for its
            format (JSON; JSONC, with comments, for VS Code; TOML for Codex), when it is
            read-only, or when an entry to be rewritten has comments inside it. Comments
            anywhere else stay where they are, as does every other byte of the file.

            Examples:
              stretto init claude-desktop orders -- npx -y @acme/orders-mcp
              stretto init cursor orders --env ORDERS_API_KEY=sk-123 --write -- npx -y @acme/orders-mcp
              stretto init claude-code docs --upstream https://example.com/mcp \\
                  --upstream-header Authorization=DOCS_AUTH --env 'DOCS_AUTH=Bearer sk-123'
              stretto init vscode shop --guards --domain retail -- python -m shop_server
              stretto init codex --wrap --all
              stretto init claude-desktop --unwrap orders

            Exit status:
              0  printed, written, or nothing to change (stdout says which)
              1  a file was left as it is (stderr: stretto: init: <why>)
              2  usage error (stderr: stretto: init: <what is wrong> (see 'stretto init --help'))
            """;

    private final InitContext context;
    private final PrintStream out;
    private final PrintStream err;

    private InitCli(InitContext context, PrintStream out, PrintStream err) {
        this.context = context;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs {@code stretto init} with this process's surroundings (HOME, the working directory,
     * the stretto-proxy the launcher names).
     *
     * @param args the command line, {@code init} first
     * @param env  the environment variables
     * @return the exit status: 0, 1 (a file left as it is) or 2 (usage error)
     */
    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        return run(List.of(args).subList(1, args.length), out, err, InitContext.ofProcess(env));
    }

    /** As above, with the arguments after {@code init} and the surroundings given. */
    static int run(List<String> args, PrintStream out, PrintStream err, InitContext context) {
        if (InitArgs.helpAsked(args)) {
            out.print(HELP);
            return OK;
        }
        InitCli cli = new InitCli(context, out, err);
        try {
            InitArgs parsed = InitArgs.parse(args, p -> context.resolve(p).toString());
            return switch (parsed.mode()) {
                case ENTRY -> cli.entry(parsed);
                case WRAP -> cli.wrap(parsed);
                case UNWRAP -> cli.unwrap(parsed);
            };
        } catch (InitArgs.Usage e) {
            err.println("stretto: init: " + e.getMessage() + " (see 'stretto init --help')");
            return USAGE;
        } catch (InitException e) {
            err.println("stretto: init: " + e.getMessage());
            return REFUSED;
        }
    }

    private String program(InitArgs a) {
        if (a.proxy() != null) {
            return a.proxy();
        }
        if (context.proxy() != null) {
            return context.proxy();
        }
        err.println("stretto: init: which stretto-proxy to run is not known (this stretto was not started by its"
                + " launcher, and no --proxy was given); the entry names " + ServerEntry.PROXY
                + ", which the host must find on its PATH");
        return ServerEntry.PROXY;
    }

    private ProxyRun run(InitArgs a) {
        return new ProxyRun(program(a), a.record(), a.noRecord(), a.domain(), a.proxyOptions());
    }

    private int entry(InitArgs a) throws InitArgs.Usage, InitException {
        String name = a.names().getFirst();
        ProxyRun run = run(a);
        List<String> server = a.command() == null ? List.of() : prepend("--", a.command());
        List<String> args = run.arguments(name, server);
        Optional<String> problem = ProxyOptionCheck.problem(args);
        if (problem.isPresent()) {
            throw new InitArgs.Usage("stretto-proxy would refuse the entry's arguments: " + problem.get());
        }
        noteHeaderVariables(args, a.env());
        ObjectNode entry = ServerEntry.command(a.host(), run.program(), args, a.env());
        if (!a.write()) {
            print(a.host(), name, entry, run.program(), args, a.env());
            return OK;
        }
        Path file = file(a);
        ConfigFile config = ConfigFile.read(file);
        ConfigDocument doc = ConfigDocument.read(a.host(), config.real(), config.text());
        boolean replacing = doc.servers().containsKey(name);
        String text = doc.withEntry(name, entry);
        if (config.exists() && text.equals(config.text())) {
            out.println(file + " has " + name + " as given already; nothing changed");
            return OK;
        }
        // Recorded, so that --unwrap knows the entry for one stretto init wrote.
        WrapRecords records = WrapRecords.load(context.home());
        records.put(config.real(), name, null, null, entry);
        records.save();
        Path backup;
        try {
            backup = config.write(text, context.clock());
        } catch (InitException e) {
            records.remove(config.real(), name);
            records.save();
            throw e;
        }
        out.println((replacing ? "replaced " : "added ") + name + " in " + file
                + (backup == null ? " (a new file)" : " (the file as it was: " + backup + ")"));
        return OK;
    }

    private void print(Host host, String name, ObjectNode entry, String program, List<String> args,
                       Map<String, String> env) {
        if (host == Host.CODEX) {
            out.print(TomlStyle.table(List.of("mcp_servers", name), entry, "\n"));
            return;
        }
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        ObjectNode at = doc;
        for (String key : host.serversPath(Path.of("mcp.json"))) {
            at = at.putObject(key);
        }
        at.set(name, entry);
        out.println(JsonStyle.DEFAULT.render(doc, ""));
        if (host == Host.CLAUDE_CODE) {
            out.println();
            out.println(ClaudeMcpAdd.line(name, program, args, env));
        }
    }

    /** A header's variable that the entry's env block does not set must be in the host's environment. */
    private void noteHeaderVariables(List<String> args, Map<String, String> env) {
        for (int i = 0; i + 1 < args.size(); i++) {
            String spec = args.get(i).equals("--upstream-header") ? args.get(i + 1)
                    : args.get(i).startsWith("--upstream-header=") ? args.get(i).substring("--upstream-header=".length())
                    : null;
            if (spec != null && spec.indexOf('=') > 0) {
                String variable = spec.substring(spec.indexOf('=') + 1);
                if (!env.containsKey(variable)) {
                    err.println("stretto: init: " + variable + " is not in the entry's env block (--env " + variable
                            + "=VALUE puts it there); the host's own environment must set it");
                }
            }
        }
    }

    private Path file(InitArgs a) throws InitArgs.Usage {
        if (a.config() != null) {
            return context.resolve(a.config());
        }
        return a.host().usualFile(context).orElseThrow(() -> new InitArgs.Usage(a.host().id()
                + " has no usual file; give --config FILE"));
    }

    private int wrap(InitArgs a) throws InitArgs.Usage, InitException {
        Path file = file(a);
        ConfigFile config = ConfigFile.read(file);
        ConfigDocument doc = ConfigDocument.read(a.host(), config.real(), config.text());
        Map<String, JsonNode> servers = doc.servers();
        List<String> targets = targets(a, servers, file);
        ProxyRun run = run(a);
        Map<String, ObjectNode> changed = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        for (String name : targets) {
            switch (Wrapping.wrap(a.host(), name, servers.get(name), run)) {
                case Wrapping.Changed(ObjectNode entry, List<String> notes) -> {
                    List<String> args = new ArrayList<>();
                    entry.path("args").forEach(x -> args.add(x.asText()));
                    Optional<String> problem = args.stream().anyMatch(x -> x.contains("${")) ? Optional.empty()
                            : ProxyOptionCheck.problem(args);
                    if (problem.isPresent()) {
                        refuse(a, name, "stretto-proxy would refuse its arguments: " + problem.get(), lines, refusals);
                    } else {
                        changed.put(name, entry);
                        lines.add("wrapped " + name + ": it runs through " + run.program()
                                + (a.noRecord() ? "" : ", recording to " + args.get(1)));
                        notes.forEach(n -> lines.add("  note: " + n));
                    }
                }
                case Wrapping.Unchanged(String why) -> lines.add("left " + name + " as it is: " + why);
                case Wrapping.Refused(String why) -> refuse(a, name, why, lines, refusals);
            }
        }
        if (!refusals.isEmpty()) {
            throw new InitException("cannot wrap " + String.join("; ", refusals) + "; nothing changed");
        }
        if (changed.isEmpty()) {
            lines.forEach(out::println);
            out.println("nothing changed in " + file);
            return OK;
        }
        WrapRecords records = WrapRecords.load(context.home());
        String text = config.text();
        for (Map.Entry<String, ObjectNode> c : changed.entrySet()) {
            ConfigDocument now = ConfigDocument.read(a.host(), config.real(), text);
            records.put(config.real(), c.getKey(), (ObjectNode) servers.get(c.getKey()),
                    doc.entryText(c.getKey()).orElse(null), c.getValue());
            text = now.withEntry(c.getKey(), c.getValue());
        }
        records.save();
        Path backup;
        try {
            backup = config.write(text, context.clock());
        } catch (InitException e) {
            for (String name : changed.keySet()) {
                records.remove(config.real(), name);
            }
            records.save();
            throw e;
        }
        lines.forEach(out::println);
        out.println("wrote " + file + " (the file as it was: " + backup + ")");
        return OK;
    }

    private int unwrap(InitArgs a) throws InitArgs.Usage, InitException {
        Path file = file(a);
        ConfigFile config = ConfigFile.read(file);
        ConfigDocument doc = ConfigDocument.read(a.host(), config.real(), config.text());
        Map<String, JsonNode> servers = doc.servers();
        List<String> targets = targets(a, servers, file);
        WrapRecords records = WrapRecords.load(context.home());
        String text = config.text();
        List<String> lines = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        List<String> restored = new ArrayList<>();
        for (String name : targets) {
            JsonNode current = servers.get(name);
            Optional<WrapRecords.Wrap> wrap = records.find(config.real(), name);
            ConfigDocument now = ConfigDocument.read(a.host(), config.real(), text);
            if (wrap.isPresent() && wrap.get().original() != null && wrap.get().wrapped().equals(current)) {
                text = restore(now, name, wrap.get());
                restored.add(name);
                lines.add("unwrapped " + name + ": it is as it was before it was wrapped");
                continue;
            }
            if (wrap.isEmpty()) {
                // Not wrapped by stretto init: what it was without the proxy is not known, so
                // it stays as its owner wrote it.
                if (ServerEntry.of(a.host(), current) instanceof ServerEntry.Proxied) {
                    lines.add("left " + name + " as it is: stretto init did not wrap it (" + records.path()
                            + " has no record of it); edit it by hand to run it without stretto-proxy");
                } else if (!a.all()) {
                    lines.add("left " + name + " as it is: it does not run through stretto-proxy");
                }
                continue;
            }
            switch (Wrapping.unwrap(a.host(), current)) {
                case Wrapping.Changed(ObjectNode entry, List<String> notes) -> {
                    text = now.withEntry(name, entry);
                    restored.add(name);
                    lines.add("unwrapped " + name + " from its stretto-proxy arguments"
                            + (wrap.get().original() != null ? " (it was changed after it was wrapped)" : ""));
                }
                case Wrapping.Unchanged(String why) -> {
                    if (!a.all()) {
                        lines.add("left " + name + " as it is: " + why);
                    }
                }
                case Wrapping.Refused(String why) -> refuse(a, name, why, lines, refusals);
            }
        }
        if (!refusals.isEmpty()) {
            throw new InitException("cannot unwrap " + String.join("; ", refusals) + "; nothing changed");
        }
        if (restored.isEmpty()) {
            lines.forEach(out::println);
            out.println("nothing changed in " + file);
            return OK;
        }
        Path backup = config.write(text, context.clock());
        for (String name : restored) {
            records.remove(config.real(), name);
        }
        records.save();
        lines.forEach(out::println);
        out.println("wrote " + file + " (the file as it was: " + backup + ")");
        return OK;
    }

    /**
     * A server that cannot be wrapped or unwrapped: with --all it is left as it is, and said so;
     * a server named on the command line stops the whole run.
     */
    private static void refuse(InitArgs a, String name, String why, List<String> lines, List<String> refusals) {
        if (a.all()) {
            lines.add("left " + name + " as it is: " + why);
        } else {
            refusals.add(name + ": " + why);
        }
    }

    /** The file's text with the entry as it was: its own text where that reads back right, else its value. */
    private static String restore(ConfigDocument doc, String name, WrapRecords.Wrap wrap) throws InitException {
        if (wrap.originalText() != null) {
            try {
                return doc.withEntryText(name, wrap.originalText(), wrap.original());
            } catch (InitException e) {
                // Written anew from its value below.
            }
        }
        return doc.withEntry(name, wrap.original());
    }

    private static List<String> targets(InitArgs a, Map<String, JsonNode> servers, Path file) throws InitException {
        if (a.all()) {
            return List.copyOf(servers.keySet());
        }
        for (String name : a.names()) {
            if (!servers.containsKey(name)) {
                throw new InitException(file + " has no server " + name + (servers.isEmpty() ? " (it has none)"
                        : " (it has " + String.join(", ", servers.keySet()) + ")") + "; nothing changed");
            }
        }
        return a.names();
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> out = new ArrayList<>(List.of(first));
        out.addAll(rest);
        return out;
    }
}
