package dev.stretto.cli.init;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code claude mcp add} command line that makes the same entry as the {@code .mcp.json}
 * shape: {@code claude mcp add --transport stdio NAME --env KEY=VALUE... -- COMMAND ARGS...}.
 * The name comes before {@code --env}, which takes any number of values and would take a name
 * after it for one more.
 */
final class ClaudeMcpAdd {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ClaudeMcpAdd() {
    }

    static String line(String name, String command, List<String> args, Map<String, String> env) {
        List<String> words = new ArrayList<>(List.of("claude", "mcp", "add", "--transport", "stdio", name));
        env.forEach((k, v) -> {
            words.add("--env");
            words.add(k + "=" + v);
        });
        words.add("--");
        words.add(command);
        words.addAll(args);
        return String.join(" ", words.stream().map(ClaudeMcpAdd::quote).toList());
    }

    /** {@code word} as a POSIX shell reads it back: as it is when plain, else in single quotes. */
    static String quote(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
