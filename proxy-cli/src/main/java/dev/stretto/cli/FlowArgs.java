package dev.stretto.cli;

import dev.stretto.proxy.flow.DeciderKind;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code stretto-proxy}'s flow options (formats 11.1), checked: {@code --flow FILE} and what
 * goes with it. Every one of them but {@code --flow} needs {@code --flow}; a value that is not
 * one the option takes is an {@link IllegalArgumentException} whose message is the usage error.
 */
final class FlowArgs {

    /**
     * The flow options that take a value, {@code --flow-tools} (repeatable) aside. ({@code
     * --oracle} and {@code --oracle-cache}, which the judge asks through too, are parsed by
     * {@link ProxyArgs}.)
     */
    static final List<String> WITH_VALUE = List.of("--flow", "--flow-threshold", "--flow-decider", "--flow-per-call",
            "--flow-per-session", "--flow-questions", "--flow-log", "--flow-explore", "--flow-explore-seed",
            "--task-id");

    /** The repeatable option naming the tools the flow may call. */
    static final String TOOLS = "--flow-tools";

    /** The flag of shadow mode. */
    static final String SHADOW = "--flow-shadow";

    private static final Pattern NUMBER = Pattern.compile("[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?|\\.[0-9]+");
    private static final Pattern WHOLE = Pattern.compile("[0-9]+");

    private FlowArgs() {
    }

    /**
     * The flow to serve, or null when none of the flow options is given.
     *
     * @param values the options with a value, by name
     * @param shadow whether {@code --flow-shadow} is given
     * @param tools  the values of every {@code --flow-tools}
     * @throws IllegalArgumentException with the usage error
     */
    static ProxyOptions.FlowChoice parse(Map<String, String> values, boolean shadow, List<String> tools) {
        String file = values.get("--flow");
        if (file == null) {
            for (String option : WITH_VALUE) {
                if (values.containsKey(option)) {
                    throw new IllegalArgumentException(option + " is for a served flow; give --flow FILE too");
                }
            }
            if (!tools.isEmpty()) {
                throw new IllegalArgumentException(TOOLS + " is for a served flow; give --flow FILE too");
            }
            if (shadow) {
                throw new IllegalArgumentException(SHADOW + " is for a served flow; give --flow FILE too");
            }
            return null;
        }
        double threshold = share(values, "--flow-threshold", 0.3);
        DeciderKind decider = null;
        String named = values.get("--flow-decider");
        if (named != null) {
            try {
                decider = DeciderKind.ofWireName(named);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--flow-decider takes arbiter, habit or reach, not '" + named + "'");
            }
        }
        Double epsilon = null;
        long seed = 0;
        if (values.containsKey("--flow-explore")) {
            epsilon = share(values, "--flow-explore", 0);
            seed = seed(values.get("--flow-explore-seed"));
        } else if (values.containsKey("--flow-explore-seed")) {
            throw new IllegalArgumentException("--flow-explore-seed seeds the draws of --flow-explore; give"
                    + " --flow-explore EPSILON too");
        }
        return new ProxyOptions.FlowChoice(ProxyArgs.path(values, "--flow"), threshold, decider,
                count(values, "--flow-per-call", 8), count(values, "--flow-per-session", 40),
                count(values, "--flow-questions", 300), tools(tools), shadow, epsilon, seed, values.get("--task-id"),
                ProxyArgs.path(values, "--flow-log"));
    }

    /** A number from 0 to 1. */
    private static double share(Map<String, String> values, String option, double dflt) {
        String v = values.get(option);
        if (v == null) {
            return dflt;
        }
        if (NUMBER.matcher(v).matches()) {
            double d = Double.parseDouble(v);
            if (d <= 1) {
                return d;
            }
        }
        throw new IllegalArgumentException(option + " takes a number from 0 to 1, not '" + v + "'");
    }

    private static int count(Map<String, String> values, String option, int dflt) {
        String v = values.get(option);
        if (v == null) {
            return dflt;
        }
        if (WHOLE.matcher(v).matches() && v.length() <= 9) {
            return Integer.parseInt(v);
        }
        throw new IllegalArgumentException(option + " takes a whole number, 0 or more, not '" + v + "'");
    }

    /** The seed, an unsigned 64-bit number as the reference takes it; 0 when not given. */
    private static long seed(String v) {
        if (v == null) {
            return 0;
        }
        if (WHOLE.matcher(v).matches()) {
            try {
                return Long.parseUnsignedLong(v);
            } catch (NumberFormatException e) {
                // Too large: said below.
            }
        }
        throw new IllegalArgumentException("--flow-explore-seed takes a whole number from 0 to 18446744073709551615,"
                + " not '" + v + "'");
    }

    /** The tools of every {@code --flow-tools A,B}, or null when the option is not given. */
    private static Set<String> tools(List<String> given) {
        if (given.isEmpty()) {
            return null;
        }
        Set<String> tools = new LinkedHashSet<>();
        for (String list : given) {
            for (String tool : list.split(",", -1)) {
                if (tool.isBlank()) {
                    throw new IllegalArgumentException(TOOLS + " takes tool names separated by commas (e.g."
                            + " get_order_details,get_user_details), not '" + list + "'");
                }
                tools.add(tool.strip());
            }
        }
        return tools;
    }
}
