package dev.stretto.proxy.share;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The personal segments of the file paths in a server command: below a home directory
 * ({@code /home/NAME}, {@code /Users/NAME}, {@code C:\Users\NAME}, {@code /root}, {@code ~}),
 * the user's name and every segment after it that is not a common directory name ({@code
 * projects}, {@code node_modules}, {@code .config}, ...). Paths elsewhere ({@code
 * /usr/local/bin/node}) name nobody and stay.
 */
final class CommandPaths {

    private static final Set<String> COMMON = Set.of("home", "users", "root", "usr", "bin", "sbin", "lib", "lib64",
            "opt", "var", "tmp", "etc", "local", "share", "src", "dist", "build", "target", "out", "node_modules",
            ".local", ".cache", ".config", ".npm", ".npx", "_npx", ".nvm", ".cargo", ".rustup", ".pyenv", ".venv", "venv",
            "env", "versions", "node", "library", "application support", "appdata", "roaming", "programs", "desktop",
            "documents", "downloads", "projects", "code", "repos", "repositories", "workspace", "workspaces", "work",
            "dev", "git", "github", "mcp", "servers", "server", "data", "logs", ".stretto", "scripts", "packages",
            "apps", "go", "pkg", "mod", "python", "site-packages", "dist-packages", "include", "snap", "mnt",
            "media", "volumes", "program files", "windows", "system32", "tests", "test", "config", "files", "notes",
            "main", "java", "resources", "index.js", "server.js", "main.py", "server.py");

    private CommandPaths() {
    }

    /** The personal segments of the paths in one argument. */
    static List<String> personalSegments(String argument) {
        List<String> out = new ArrayList<>();
        String s = argument;
        int eq = s.indexOf('=');
        if (eq > 0 && !looksLikePath(s)) {
            s = s.substring(eq + 1);
        }
        if (s.startsWith("file://")) {
            s = s.substring("file://".length());
        }
        if (!looksLikePath(s)) {
            return out;
        }
        String[] parts = s.split("[/\\\\]+");
        int from = -1;
        if (parts.length > 0 && parts[0].equals("~")) {
            from = 1;
        }
        for (int i = 0; i < parts.length - 1 && from < 0; i++) {
            String p = parts[i].toLowerCase(Locale.ROOT);
            if (p.equals("home") || p.equals("users")) {
                from = i + 1;
            } else if (p.equals("root") && i <= 1) {
                from = i + 1;
            }
        }
        if (from < 0) {
            return out;
        }
        for (int i = from; i < parts.length; i++) {
            String p = parts[i];
            if (p.length() >= 2 && !COMMON.contains(p.toLowerCase(Locale.ROOT)) && !p.equals("..")) {
                out.add(p);
            }
        }
        return out;
    }

    private static boolean looksLikePath(String s) {
        return s.startsWith("/") || s.startsWith("~/") || s.equals("~")
                || (s.length() > 2 && Character.isLetter(s.charAt(0)) && s.charAt(1) == ':'
                && (s.charAt(2) == '\\' || s.charAt(2) == '/'));
    }
}
