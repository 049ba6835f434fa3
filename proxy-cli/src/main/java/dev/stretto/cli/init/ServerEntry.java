package dev.stretto.cli.init;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A server's entry in a host's file, as {@code stretto init} sees it: one the host starts as a
 * command, one it reaches over Streamable HTTP, one that runs through stretto-proxy already,
 * or one of a shape the host does not document (which is left alone).
 */
sealed interface ServerEntry {

    /** A server the host starts: {@code command} with {@code args}. */
    record Command(String command, List<String> args) implements ServerEntry {
    }

    /**
     * A server the host reaches at {@code url}, sending {@code headers} (name to literal value)
     * and {@code headerVariables} (name to the environment variable holding the value; Codex's
     * {@code env_http_headers}), and signing in to it as {@code oauth} says (null: as the spec
     * says, when the server asks).
     */
    record Http(String url, Map<String, String> headers, Map<String, String> headerVariables, OAuth oauth)
            implements ServerEntry {
    }

    /**
     * What a host's entry says of signing in to an HTTP server: Claude Code's {@code oauth}
     * ({@code clientId}, {@code callbackPort}, {@code scopes}), Cursor's {@code auth} ({@code
     * CLIENT_ID}, {@code CLIENT_SECRET}, {@code scopes}), either spelling in either.
     *
     * @param key          the entry's key ({@code oauth} or {@code auth})
     * @param clientId     the pre-registered client id, or null
     * @param callbackPort the fixed callback port, or 0
     * @param scopes       the scopes to ask for, none for the server's
     * @param secret       whether the entry holds a client secret (which is never copied)
     * @param others       the keys the proxy has no option for
     */
    record OAuth(String key, String clientId, int callbackPort, List<String> scopes, boolean secret,
                 List<String> others) {
    }

    /** An entry whose command is a stretto-proxy already. */
    record Proxied() implements ServerEntry {
    }

    /** An entry of a shape the host does not document; {@code why} says what is odd. */
    record Odd(String why) implements ServerEntry {
    }

    /** The proxy's program name: an entry whose command ends in it runs through the proxy. */
    String PROXY = "stretto-proxy";

    /** Codex's keys of an HTTP server that {@code stretto init} reads. */
    Set<String> CODEX_HTTP = Set.of("url", "http_headers", "env_http_headers");

    static ServerEntry of(Host host, JsonNode entry) {
        if (!entry.isObject()) {
            return new Odd("its entry is not an object");
        }
        JsonNode command = entry.get("command");
        Host.HttpKeys http = host.http().orElse(null);
        boolean hasUrl = http != null && entry.has(http.url());
        if (command != null) {
            if (!command.isTextual() || command.textValue().isBlank()) {
                return new Odd("its command is not a program's name");
            }
            if (hasUrl) {
                return new Odd("it has both a command and a URL");
            }
            JsonNode type = entry.get("type");
            if (type != null && !(type.isTextual() && type.textValue().equals("stdio"))) {
                return new Odd("it has a command and the type " + type);
            }
            JsonNode args = entry.get("args");
            List<String> list = new ArrayList<>();
            if (args != null) {
                if (!args.isArray()) {
                    return new Odd("its args are not a list");
                }
                for (JsonNode a : args) {
                    if (!a.isTextual()) {
                        return new Odd("its args are not all strings");
                    }
                    list.add(a.textValue());
                }
            }
            String program = command.textValue();
            if (program.equals(PROXY) || program.endsWith("/" + PROXY)) {
                return new Proxied();
            }
            return new Command(program, List.copyOf(list));
        }
        if (http == null) {
            return new Odd(host.title() + " starts every server as a command, and this entry has none");
        }
        if (!hasUrl) {
            return new Odd("it has neither a command nor a " + http.url());
        }
        JsonNode url = entry.get(http.url());
        if (!url.isTextual() || url.textValue().isBlank()) {
            return new Odd("its " + http.url() + " is not a URL");
        }
        OAuth oauth = null;
        String oauthKey = entry.has("oauth") ? "oauth" : entry.has("auth") ? "auth" : null;
        if (oauthKey != null) {
            Object parsed = oauth(oauthKey, entry.get(oauthKey));
            if (parsed instanceof String why) {
                return new Odd(why);
            }
            oauth = (OAuth) parsed;
        }
        if (host == Host.CODEX && entry.has("bearer_token_env_var")) {
            return new Odd("it sends a bearer token from bearer_token_env_var, and stretto-proxy sends a header's"
                    + " value as a variable holds it: put \"Bearer <token>\" in a variable and name it in"
                    + " env_http_headers");
        }
        JsonNode type = entry.get("type");
        if (type != null) {
            String t = type.isTextual() ? type.textValue() : type.toString();
            if (t.equals("sse")) {
                return new Odd("it uses the SSE transport, and stretto-proxy --upstream speaks Streamable HTTP");
            }
            if (!Set.of("http", "streamable-http", "streamableHttp").contains(t)) {
                return new Odd("its type " + type + " is not one " + host.title() + " documents");
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, String> variables = new LinkedHashMap<>();
        String problem = strings(entry.get(http.headers()), headers);
        if (problem == null && host == Host.CODEX) {
            problem = strings(entry.get("env_http_headers"), variables);
        }
        if (problem != null) {
            return new Odd("its headers " + problem);
        }
        return new Http(url.textValue(), headers, variables, oauth);
    }

    /** The entry's sign-in settings, or a String saying what is wrong with them. */
    private static Object oauth(String key, JsonNode o) {
        if (!o.isObject()) {
            return "its " + key + " is not an object";
        }
        String clientId = null;
        int port = 0;
        List<String> scopes = List.of();
        boolean secret = false;
        List<String> others = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            JsonNode v = e.getValue();
            switch (e.getKey().toLowerCase(java.util.Locale.ROOT).replace("_", "")) {
                case "clientid" -> {
                    if (!v.isTextual() || v.textValue().isBlank()) {
                        return "its " + key + "." + e.getKey() + " is not a client id";
                    }
                    clientId = v.textValue();
                }
                case "clientsecret" -> secret = true;
                case "callbackport" -> {
                    port = v.canConvertToInt() ? v.asInt() : v.isTextual() && v.textValue().matches("[0-9]{1,5}")
                            ? Integer.parseInt(v.textValue()) : -1;
                    if (port < 1 || port > 65535) {
                        return "its " + key + "." + e.getKey() + " is not a port";
                    }
                }
                case "scopes", "scope" -> {
                    List<String> list = new ArrayList<>();
                    if (v.isTextual()) {
                        for (String s : v.textValue().strip().split("[\\s,]+")) {
                            if (!s.isEmpty()) {
                                list.add(s);
                            }
                        }
                    } else if (v.isArray()) {
                        for (JsonNode s : v) {
                            if (!s.isTextual()) {
                                return "its " + key + "." + e.getKey() + " are not all strings";
                            }
                            list.add(s.textValue());
                        }
                    } else {
                        return "its " + key + "." + e.getKey() + " are not scopes";
                    }
                    scopes = List.copyOf(list);
                }
                default -> others.add(e.getKey());
            }
        }
        return new OAuth(key, clientId, port, scopes, secret, List.copyOf(others));
    }

    /** Fills {@code out} from an object of strings; says what is wrong with it otherwise. */
    private static String strings(JsonNode object, Map<String, String> out) {
        if (object == null) {
            return null;
        }
        if (!object.isObject()) {
            return "are not an object";
        }
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (!e.getValue().isTextual()) {
                return "are not all strings";
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return null;
    }

    /**
     * A new entry that starts {@code command} with {@code args} and {@code env}, as {@code host}
     * writes one ({@code "type": "stdio"} first for Claude Code and VS Code; no env when empty).
     */
    static ObjectNode command(Host host, String command, List<String> args, Map<String, String> env) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        if (host.writesStdioType()) {
            entry.put("type", "stdio");
        }
        entry.put("command", command);
        ArrayNode list = entry.putArray("args");
        args.forEach(list::add);
        if (!env.isEmpty()) {
            ObjectNode e = entry.putObject("env");
            env.forEach(e::put);
        }
        return entry;
    }
}
