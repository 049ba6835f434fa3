package dev.stretto.cli.init;

import java.util.ArrayList;
import java.util.List;

/**
 * How an entry runs stretto-proxy: the program (an absolute path, or {@code stretto-proxy} for
 * the host's PATH to find) and the options before the server: {@code --record} (by default
 * {@code ~/.stretto/logs/NAME}, which the proxy expands itself) unless {@code noRecord},
 * {@code --domain} (by default NAME), then the other proxy options as given.
 *
 * @param record the --record directory, or null for the default
 * @param domain the --domain, or null for the server's name
 */
record ProxyRun(String program, String record, boolean noRecord, String domain, List<String> options) {

    /** Where a server's sessions are recorded by default. */
    static final String LOGS = "~/.stretto/logs/";

    /** The proxy's arguments for server {@code name}, ending with {@code server} ({@code -- ...} or {@code --upstream ...}). */
    List<String> arguments(String name, List<String> server) {
        List<String> out = new ArrayList<>();
        if (!noRecord) {
            out.add("--record");
            out.add(record != null ? record : LOGS + directoryName(name));
        }
        out.add("--domain");
        out.add(domain != null ? domain : name);
        out.addAll(options);
        out.addAll(server);
        return out;
    }

    /** A server's name as one directory's name: what is not a letter, digit, '.', '_' or '-' becomes '_'. */
    static String directoryName(String name) {
        String s = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.isEmpty() || s.equals(".") || s.equals("..") ? "_" + s : s;
    }
}
