package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which calls a rule or a budget is about: tool names (globs; none given is every tool), the
 * server's hints about the tool, and conditions on the arguments. All that is given must hold.
 *
 * @param tools       the globs, one of which the tool's name must match; empty for every tool
 * @param annotations for each hint given, the values it may have
 * @param arguments   the conditions the arguments must meet
 */
record Match(List<Glob> tools, Map<Hint, Set<Hint.Value>> annotations, List<Condition> arguments) {

    Match {
        tools = List.copyOf(tools);
        annotations = Map.copyOf(annotations);
        arguments = List.copyOf(arguments);
    }

    /** Whether the tool itself matches: its name and, from its listing, its hints (null: none known). */
    boolean tool(String name, JsonNode toolAnnotations) {
        if (!tools.isEmpty() && tools.stream().noneMatch(g -> g.matches(name))) {
            return false;
        }
        for (Map.Entry<Hint, Set<Hint.Value>> e : annotations.entrySet()) {
            if (!e.getValue().contains(e.getKey().in(toolAnnotations))) {
                return false;
            }
        }
        return true;
    }

    /** Whether a call of {@code name} with {@code args} matches. */
    boolean call(String name, JsonNode toolAnnotations, JsonNode args) {
        return tool(name, toolAnnotations) && arguments.stream().allMatch(c -> c.met(args));
    }
}
