package dev.stretto.cli.init;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The MCP hosts {@code stretto init} writes entries for: where each keeps its servers, in which
 * file and format, and how it writes a server it starts (stdio) and one it reaches over HTTP.
 */
enum Host {
    CLAUDE_DESKTOP("claude-desktop", "Claude Desktop", Format.JSON, false, false, null),
    CLAUDE_CODE("claude-code", "Claude Code", Format.JSON, true, false, new HttpKeys("http", "url", "headers")),
    CURSOR("cursor", "Cursor", Format.JSON, false, false, new HttpKeys(null, "url", "headers")),
    VSCODE("vscode", "VS Code", Format.JSON, true, true, new HttpKeys("http", "url", "headers")),
    WINDSURF("windsurf", "Windsurf", Format.JSON, false, false, new HttpKeys(null, "serverUrl", "headers")),
    CODEX("codex", "Codex", Format.TOML, false, false, new HttpKeys(null, "url", "http_headers")),
    JSON("json", "any host that reads the plain mcpServers shape", Format.JSON, false, false,
            new HttpKeys(null, "url", "headers"));

    /** How a host's file is written. */
    enum Format {
        JSON, TOML
    }

    /**
     * How a host writes a server it reaches over Streamable HTTP.
     *
     * @param type    the {@code type} such an entry has, or null when the host writes none (a
     *                {@code type} other than this, {@code sse} say, is not Streamable HTTP)
     * @param url     the key of the server's URL
     * @param headers the key of the headers sent with each request, name to literal value
     */
    record HttpKeys(String type, String url, String headers) {
    }

    private final String id;
    private final String title;
    private final Format format;
    private final boolean writesStdioType;
    private final boolean allowsComments;
    private final HttpKeys http;

    Host(String id, String title, Format format, boolean writesStdioType, boolean allowsComments, HttpKeys http) {
        this.id = id;
        this.title = title;
        this.format = format;
        this.writesStdioType = writesStdioType;
        this.allowsComments = allowsComments;
        this.http = http;
    }

    /** The name on the command line: {@code claude-desktop}, {@code codex}, ... */
    String id() {
        return id;
    }

    String title() {
        return title;
    }

    Format format() {
        return format;
    }

    /** Whether the host writes {@code "type": "stdio"} into the entry of a server it starts. */
    boolean writesStdioType() {
        return writesStdioType;
    }

    /** Whether the host reads its JSON files with comments and trailing commas (JSONC). */
    boolean allowsComments() {
        return allowsComments;
    }

    /** How the host writes an HTTP server, or empty when its file has no such entries. */
    Optional<HttpKeys> http() {
        return Optional.ofNullable(http);
    }

    static Optional<Host> named(String id) {
        for (Host h : values()) {
            if (h.id.equals(id)) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }

    static String names() {
        return String.join(", ", java.util.Arrays.stream(values()).map(Host::id).toList());
    }

    /**
     * The keys, from the top of {@code file}, of the object that holds the servers:
     * {@code mcpServers}; VS Code's {@code servers} ({@code mcp.servers} in a settings.json);
     * Codex's {@code mcp_servers}.
     */
    List<String> serversPath(Path file) {
        return switch (this) {
            case CLAUDE_DESKTOP, CLAUDE_CODE, CURSOR, WINDSURF, JSON -> List.of("mcpServers");
            case VSCODE -> file.getFileName() != null && file.getFileName().toString().equals("settings.json")
                    ? List.of("mcp", "servers") : List.of("servers");
            case CODEX -> List.of("mcp_servers");
        };
    }

    /** The file the host reads its servers from, for {@code --write} without {@code --config}. */
    Optional<Path> usualFile(InitContext context) {
        Path home = context.home();
        return switch (this) {
            case CLAUDE_DESKTOP -> Optional.of(switch (context.os()) {
                case MACOS -> home.resolve("Library/Application Support/Claude/claude_desktop_config.json");
                case LINUX -> configHome(context).resolve("Claude/claude_desktop_config.json");
            });
            case CLAUDE_CODE -> Optional.of(context.workingDir().resolve(".mcp.json"));
            case CURSOR -> Optional.of(home.resolve(".cursor/mcp.json"));
            case VSCODE -> Optional.of(context.workingDir().resolve(".vscode/mcp.json"));
            case WINDSURF -> Optional.of(home.resolve(".codeium/windsurf/mcp_config.json"));
            case CODEX -> {
                String codexHome = context.env().get("CODEX_HOME");
                yield Optional.of((codexHome == null || codexHome.isEmpty() ? home.resolve(".codex")
                        : context.resolve(codexHome)).resolve("config.toml"));
            }
            case JSON -> Optional.empty();
        };
    }

    private static Path configHome(InitContext context) {
        String xdg = context.env().get("XDG_CONFIG_HOME");
        return xdg == null || xdg.isEmpty() ? context.home().resolve(".config") : context.resolve(xdg);
    }
}
