package dev.stretto.cli.init;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a server's entry to run through stretto-proxy ({@link #wrap}), and back from the
 * proxy's arguments ({@link #unwrap}; {@link WrapRecords} gives the exact entry back when it
 * has it). A command's entry keeps every key: its command becomes the proxy and its args the
 * proxy's, ending with {@code -- COMMAND ARGS...}. An HTTP server's becomes a command's
 * entry with {@code --upstream URL}; each literal header value moves into the env block,
 * under a variable the proxy's {@code --upstream-header NAME=VAR} names.
 */
final class Wrapping {

    /** What wrapping or unwrapping one entry came to. */
    sealed interface Outcome {
    }

    /** The entry as it is to be written, and what the user should know about it (none: nothing). */
    record Changed(ObjectNode entry, List<String> notes) implements Outcome {

        Changed(ObjectNode entry) {
            this(entry, List.of());
        }
    }

    /** Nothing to do: {@code why} says so (already wrapped, or not wrapped). */
    record Unchanged(String why) implements Outcome {
    }

    /** It cannot be done; {@code why} says why. */
    record Refused(String why) implements Outcome {
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Wrapping() {
    }

    static Outcome wrap(Host host, String name, JsonNode entry, ProxyRun run) {
        return switch (ServerEntry.of(host, entry)) {
            case ServerEntry.Proxied p -> new Unchanged("it runs through stretto-proxy already");
            case ServerEntry.Odd(String why) -> new Refused(why);
            case ServerEntry.Command(String command, List<String> args) -> {
                List<String> server = new ArrayList<>(List.of("--", command));
                server.addAll(args);
                yield new Changed(withCommand((ObjectNode) entry, run.program(), run.arguments(name, server)));
            }
            case ServerEntry.Http http -> wrapHttp(host, name, (ObjectNode) entry, http, run);
        };
    }

    /** {@code entry} with its command and args replaced in place (args added after the command when it had none). */
    private static ObjectNode withCommand(ObjectNode entry, String command, List<String> args) {
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<String, JsonNode> e : entry.properties()) {
            switch (e.getKey()) {
                case "command" -> {
                    out.put("command", command);
                    if (!entry.has("args")) {
                        out.set("args", strings(args));
                    }
                }
                case "args" -> out.set("args", strings(args));
                default -> out.set(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static Outcome wrapHttp(Host host, String name, ObjectNode entry, ServerEntry.Http http, ProxyRun run) {
        Host.HttpKeys keys = host.http().orElseThrow();
        ObjectNode env = entry.get("env") instanceof ObjectNode e ? e.deepCopy() : NODES.objectNode();
        List<String> server = new ArrayList<>(List.of("--upstream", http.url()));
        for (Map.Entry<String, String> h : http.headers().entrySet()) {
            String variable = variableFor(name, h.getKey(), h.getValue(), env);
            env.put(variable, h.getValue());
            server.add("--upstream-header");
            server.add(h.getKey() + "=" + variable);
        }
        List<String> forwarded = new ArrayList<>();
        for (Map.Entry<String, String> h : http.headerVariables().entrySet()) {
            server.add("--upstream-header");
            server.add(h.getKey() + "=" + h.getValue());
            forwarded.add(h.getValue());
        }
        List<String> notes = new ArrayList<>();
        ServerEntry.OAuth oauth = http.oauth();
        if (oauth != null) {
            if (oauth.clientId() != null) {
                server.addAll(List.of("--oauth-client-id", oauth.clientId()));
            }
            if (oauth.callbackPort() > 0) {
                server.addAll(List.of("--oauth-callback-port", String.valueOf(oauth.callbackPort())));
            }
            if (!oauth.scopes().isEmpty()) {
                server.addAll(List.of("--oauth-scope", String.join(" ", oauth.scopes())));
            }
            if (oauth.secret()) {
                notes.add("the client secret in its " + oauth.key() + " was not copied: put it in a file of your own"
                        + " and add --oauth-client-secret-file FILE to its stretto-proxy arguments");
            }
            for (String other : oauth.others()) {
                notes.add("its " + oauth.key() + "." + other + " has no stretto-proxy option and was left out (the"
                        + " proxy discovers the authorization server itself)");
            }
        }
        Set<String> dropped = host == Host.CODEX
                ? Set.of("type", keys.url(), keys.headers(), "env", "env_http_headers", "env_vars", "oauth", "auth")
                : Set.of("type", keys.url(), keys.headers(), "env", "oauth", "auth");
        ObjectNode out = NODES.objectNode();
        if (host.writesStdioType()) {
            out.put("type", "stdio");
        }
        out.put("command", run.program());
        out.set("args", strings(run.arguments(name, server)));
        if (!env.isEmpty()) {
            out.set("env", env);
        }
        // Codex hands a stdio server only the variables it is told to (env_vars): the ones the
        // HTTP server's headers named go on to the proxy.
        if (host == Host.CODEX && (!forwarded.isEmpty() || entry.has("env_vars"))) {
            ArrayNode vars = entry.get("env_vars") instanceof ArrayNode a ? a.deepCopy() : NODES.arrayNode();
            for (String v : forwarded) {
                if (!contains(vars, v)) {
                    vars.add(v);
                }
            }
            out.set("env_vars", vars);
        }
        for (Map.Entry<String, JsonNode> e : entry.properties()) {
            if (!dropped.contains(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        }
        return new Changed(out, List.copyOf(notes));
    }

    /**
     * The env variable a literal header's value moves to: the server's and the header's names
     * in capitals ({@code ORDERS_AUTHORIZATION}), numbered when the env block holds another
     * value under that name.
     */
    static String variableFor(String server, String header, String value, ObjectNode env) {
        String base = (server + "_" + header).replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
        if (Character.isDigit(base.charAt(0))) {
            base = "_" + base;
        }
        String name = base;
        for (int n = 2; env.has(name) && !env.get(name).asText().equals(value); n++) {
            name = base + "_" + n;
        }
        return name;
    }

    /**
     * The entry without the proxy, from the proxy's arguments: the command after {@code --},
     * or the HTTP server of {@code --upstream} with each header's value taken back from the
     * env block.
     */
    static Outcome unwrap(Host host, JsonNode entry) {
        if (!(ServerEntry.of(host, entry) instanceof ServerEntry.Proxied)) {
            return new Unchanged("it does not run through stretto-proxy");
        }
        ObjectNode wrapped = (ObjectNode) entry;
        List<String> args = new ArrayList<>();
        wrapped.path("args").forEach(a -> args.add(a.asText()));
        int dashes = args.indexOf("--");
        if (dashes >= 0) {
            if (dashes + 1 >= args.size()) {
                return new Refused("its stretto-proxy arguments end with -- and no command");
            }
            List<String> server = args.subList(dashes + 1, args.size());
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<String, JsonNode> e : wrapped.properties()) {
                switch (e.getKey()) {
                    case "command" -> out.put("command", server.getFirst());
                    case "args" -> out.set("args", strings(server.subList(1, server.size())));
                    default -> out.set(e.getKey(), e.getValue());
                }
            }
            return new Changed(out);
        }
        return unwrapHttp(host, wrapped, args);
    }

    private static Outcome unwrapHttp(Host host, ObjectNode wrapped, List<String> args) {
        String url = null;
        Map<String, String> headerVariables = new LinkedHashMap<>();
        Map<String, String> oauth = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String value = i + 1 < args.size() ? args.get(i + 1) : null;
            String option = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (List.of("--oauth-client-id", "--oauth-callback-port", "--oauth-scope").contains(option)) {
                if (a.contains("=")) {
                    oauth.put(option, a.substring(a.indexOf('=') + 1));
                } else if (value != null) {
                    oauth.put(option, value);
                    i++;
                }
            } else if (a.startsWith("--upstream=")) {
                url = a.substring("--upstream=".length());
            } else if (a.equals("--upstream") && value != null) {
                url = value;
                i++;
            } else if (a.startsWith("--upstream-header=") || a.equals("--upstream-header") && value != null) {
                String spec = a.equals("--upstream-header") ? args.get(++i) : a.substring("--upstream-header=".length());
                int eq = spec.indexOf('=');
                if (eq <= 0) {
                    return new Refused("its --upstream-header " + spec + " is not NAME=VAR");
                }
                headerVariables.put(spec.substring(0, eq), spec.substring(eq + 1));
            }
        }
        if (url == null) {
            return new Refused("its stretto-proxy arguments name no server (no -- COMMAND and no --upstream URL)");
        }
        Host.HttpKeys keys = host.http().orElse(null);
        if (keys == null) {
            return new Refused(host.title() + " has no entries for HTTP servers to restore it as");
        }
        ObjectNode env = wrapped.get("env") instanceof ObjectNode e ? e.deepCopy() : NODES.objectNode();
        ObjectNode headers = NODES.objectNode();
        ObjectNode fromEnvironment = NODES.objectNode();
        for (Map.Entry<String, String> h : headerVariables.entrySet()) {
            JsonNode value = env.remove(h.getValue());
            if (value != null) {
                headers.set(h.getKey(), value);
            } else if (host == Host.CODEX) {
                fromEnvironment.put(h.getKey(), h.getValue());
            } else {
                return new Refused("header " + h.getKey() + " takes its value from the host's variable " + h.getValue()
                        + ", which " + host.title() + "'s HTTP entries cannot name");
            }
        }
        ObjectNode out = NODES.objectNode();
        if (keys.type() != null) {
            out.put("type", keys.type());
        }
        out.put(keys.url(), url);
        if (!headers.isEmpty()) {
            out.set(keys.headers(), headers);
        }
        if (!fromEnvironment.isEmpty()) {
            out.set("env_http_headers", fromEnvironment);
        }
        ObjectNode signIn = signIn(host, oauth);
        if (signIn != null) {
            out.set(host == Host.CURSOR ? "auth" : "oauth", signIn);
        }
        for (Map.Entry<String, JsonNode> e : wrapped.properties()) {
            switch (e.getKey()) {
                case "type", "command", "args" -> {
                }
                case "env" -> {
                    if (!env.isEmpty()) {
                        out.set("env", env);
                    }
                }
                case "env_vars" -> {
                    ArrayNode kept = NODES.arrayNode();
                    e.getValue().forEach(v -> {
                        if (!fromEnvironment.properties().stream().anyMatch(f -> f.getValue().asText().equals(v.asText()))) {
                            kept.add(v);
                        }
                    });
                    if (!kept.isEmpty()) {
                        out.set("env_vars", kept);
                    }
                }
                default -> out.set(e.getKey(), e.getValue());
            }
        }
        return new Changed(out);
    }

    /**
     * The host's sign-in block from the proxy's {@code --oauth-*} options: Claude Code's {@code
     * oauth} or Cursor's {@code auth}; null for other hosts, or when there are none.
     */
    private static ObjectNode signIn(Host host, Map<String, String> oauth) {
        if (oauth.isEmpty() || host != Host.CLAUDE_CODE && host != Host.CURSOR) {
            return null;
        }
        ObjectNode o = NODES.objectNode();
        boolean cursor = host == Host.CURSOR;
        String id = oauth.get("--oauth-client-id");
        if (id != null) {
            o.put(cursor ? "CLIENT_ID" : "clientId", id);
        }
        String port = oauth.get("--oauth-callback-port");
        if (port != null && !cursor && port.matches("[0-9]{1,5}")) {
            o.put("callbackPort", Integer.parseInt(port));
        }
        String scope = oauth.get("--oauth-scope");
        if (scope != null) {
            if (cursor) {
                o.set("scopes", strings(List.of(scope.strip().split("[\\s,]+"))));
            } else {
                o.put("scopes", scope);
            }
        }
        return o.isEmpty() ? null : o;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode a = NODES.arrayNode();
        values.forEach(a::add);
        return a;
    }

    private static boolean contains(ArrayNode array, String value) {
        for (JsonNode v : array) {
            if (v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
