package dev.stretto.cli.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A subcommand's arguments split into the flags it knows, options with a value and the
 * operands. {@code --} ends the options; {@code --name=value} and {@code --name value} both
 * work for options with a value. An option given again replaces its value, except a repeatable
 * one, whose values are all kept in {@link #repeated()}.
 */
record Args(Set<String> flags, java.util.Map<String, String> values, List<String> operands,
            java.util.Map<String, List<String>> repeated) {

    static Args parse(String command, String[] args, int from, Set<String> knownFlags, Set<String> knownValues)
            throws UsageException {
        return parse(command, args, from, knownFlags, knownValues, Set.of());
    }

    static Args parse(String command, String[] args, int from, Set<String> knownFlags, Set<String> knownValues,
                      Set<String> repeatable) throws UsageException {
        Set<String> flags = new java.util.HashSet<>();
        java.util.Map<String, String> values = new java.util.HashMap<>();
        java.util.Map<String, List<String>> repeated = new java.util.HashMap<>();
        List<String> operands = new ArrayList<>();
        boolean options = true;
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (options && a.equals("--")) {
                options = false;
            } else if (options && a.startsWith("-") && a.length() > 1) {
                String name = a;
                String value = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                if (knownFlags.contains(name)) {
                    if (value != null) {
                        throw new UsageException(command, name + " takes no value");
                    }
                    flags.add(name);
                } else if (knownValues.contains(name) || repeatable.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new UsageException(command, name + " needs a value");
                        }
                        value = args[++i];
                    }
                    if (repeatable.contains(name)) {
                        repeated.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
                    } else {
                        values.put(name, value);
                    }
                } else {
                    throw new UsageException(command, "unknown option '" + a + "'");
                }
            } else {
                operands.add(a);
            }
        }
        return new Args(flags, values, operands, repeated);
    }

    boolean has(String flag) {
        return flags.contains(flag);
    }

    /**
     * Checks that the options of {@code names} are given and there are no operands.
     *
     * @throws UsageException naming the first missing option, or the first operand
     */
    void requireOptionsOnly(String command, String... names) throws UsageException {
        if (!operands.isEmpty()) {
            throw new UsageException(command, "unexpected argument '" + operands.getFirst() + "'");
        }
        for (String name : names) {
            if (!values.containsKey(name)) {
                throw new UsageException(command, name + " is required");
            }
        }
    }
}
