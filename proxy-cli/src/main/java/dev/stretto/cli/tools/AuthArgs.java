package dev.stretto.cli.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of {@code stretto login}, {@code logout} and {@code auth}: options that take a
 * value (as the next argument or after {@code =}), switches, and the rest in order.
 *
 * @param values the options with a value, by name
 * @param flags  the switches given
 * @param rest   the other arguments, in order
 */
record AuthArgs(Map<String, String> values, Set<String> flags, List<String> rest) {

    /**
     * @param command    the subcommand, for messages
     * @param withValue  the options that take a value
     * @param switches   the options that take none
     * @throws UsageException for an unknown option, one without its value, or one given twice
     */
    static AuthArgs parse(String command, List<String> args, List<String> withValue, Set<String> switches)
            throws UsageException {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                rest.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq > 2 ? arg.substring(0, eq) : arg;
            if (switches.contains(name)) {
                if (eq > 2) {
                    throw new UsageException(command, name + " takes no value");
                }
                flags.add(name);
                continue;
            }
            if (!withValue.contains(name)) {
                throw new UsageException(command, "unknown option " + name);
            }
            String value;
            if (eq > 2) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException(command, name + " needs a value");
            }
            if (value.isEmpty()) {
                throw new UsageException(command, name + " needs a value");
            }
            if (values.putIfAbsent(name, value) != null) {
                throw new UsageException(command, name + " is given more than once");
            }
        }
        return new AuthArgs(values, flags, rest);
    }
}
