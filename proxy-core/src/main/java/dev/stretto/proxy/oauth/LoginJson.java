package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.StoredLogin;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link StoredLogin} as the JSON document of its file in {@code ~/.stretto/auth/}:
 * {@code {"version":1,"server":...,"resource":...,"issuer":...,"client":{"id":...,"secret":...,
 * "auth_method":...,"redirect_uris":[...]},"tokens":{"access_token":...,"refresh_token":...,
 * "obtained_at":"...","expires_at":"...","scopes":[...]}}}, times in ISO-8601.
 */
final class LoginJson {

    static final int VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private LoginJson() {
    }

    static byte[] write(StoredLogin login) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("server", login.server().toString());
        putIf(root, "resource", login.resource());
        root.put("issuer", login.issuer());
        StoredLogin.Client c = login.client();
        if (c != null) {
            ObjectNode client = root.putObject("client");
            client.put("id", c.id());
            putIf(client, "secret", c.secret());
            putIf(client, "auth_method", c.authMethod());
            ArrayNode uris = client.putArray("redirect_uris");
            c.redirectUris().forEach(uris::add);
        }
        StoredLogin.Tokens t = login.tokens();
        if (t != null) {
            ObjectNode tokens = root.putObject("tokens");
            tokens.put("access_token", t.accessToken());
            putIf(tokens, "refresh_token", t.refreshToken());
            tokens.put("obtained_at", t.obtained().toString());
            putIf(tokens, "expires_at", t.expiresAt() == null ? null : t.expiresAt().toString());
            ArrayNode scopes = tokens.putArray("scopes");
            t.scopes().forEach(scopes::add);
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (IOException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /** @throws IOException when the text is not such a document (the message shows no value) */
    static StoredLogin read(byte[] bytes) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IOException("it is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IOException("it is not a JSON object");
        }
        if (root.path("version").asInt(-1) != VERSION) {
            throw new IOException("it is not of version " + VERSION);
        }
        try {
            URI server = new URI(text(root, "server", true));
            StoredLogin.Client client = null;
            JsonNode c = root.get("client");
            if (c != null && c.isObject()) {
                client = new StoredLogin.Client(text(c, "id", true), text(c, "secret", false),
                        text(c, "auth_method", false), strings(c.get("redirect_uris")));
            }
            StoredLogin.Tokens tokens = null;
            JsonNode t = root.get("tokens");
            if (t != null && t.isObject()) {
                String expires = text(t, "expires_at", false);
                tokens = new StoredLogin.Tokens(text(t, "access_token", true), text(t, "refresh_token", false),
                        Instant.parse(text(t, "obtained_at", true)), expires == null ? null : Instant.parse(expires),
                        strings(t.get("scopes")));
            }
            return new StoredLogin(server, text(root, "resource", false), text(root, "issuer", true), client, tokens);
        } catch (URISyntaxException | DateTimeParseException | NullPointerException e) {
            throw new IOException("a field of it is not valid");
        }
    }

    private static void putIf(ObjectNode o, String name, String value) {
        if (value != null) {
            o.put(name, value);
        }
    }

    private static String text(JsonNode o, String name, boolean required) throws IOException {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IOException("it has no " + name);
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IOException("its " + name + " is not a string");
        }
        return v.textValue();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(v -> {
                if (v.isTextual()) {
                    out.add(v.textValue());
                }
            });
        }
        return out;
    }
}
