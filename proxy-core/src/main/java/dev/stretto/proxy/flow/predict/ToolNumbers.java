package dev.stretto.proxy.flow.predict;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers the flow's program gives tools (the decision values of a run line): 0 is
 * handing back, then the read tools of {@code sites.reads} in order (1, 2, ...), then the
 * manifest's other tools in name order; a tool unknown to the flow gets the next number the
 * first time it is asked for. Not thread-safe: one per session, used by its owner.
 */
public final class ToolNumbers {

    /** The decision value of handing back. */
    public static final int HAND_BACK = 0;

    private final Map<String, Integer> numbers = new HashMap<>();
    private final List<String> tools = new ArrayList<>();
    private final int reads;

    /** The numbers of {@code flow}'s tools. */
    public ToolNumbers(Flow flow) {
        tools.add(null);
        for (String r : flow.sites().reads()) {
            add(r);
        }
        reads = tools.size() - 1;
        List<String> others = new ArrayList<>(flow.manifest().tools().keySet());
        others.sort(CanonicalJson::compareCodePoints);
        for (String t : others) {
            add(t);
        }
    }

    private void add(String tool) {
        if (!numbers.containsKey(tool)) {
            numbers.put(tool, tools.size());
            tools.add(tool);
        }
    }

    /** The number of {@code tool}, giving an unknown tool the next one. */
    public int number(String tool) {
        add(tool);
        return numbers.get(tool);
    }

    /** The tool of {@code number}, or null for handing back or a number never given. */
    public String tool(int number) {
        return number > 0 && number < tools.size() ? tools.get(number) : null;
    }

    /** Whether the program offers {@code tool} as a decision: it is one of the flow's read tools. */
    public boolean offered(String tool) {
        Integer n = numbers.get(tool);
        return n != null && n >= 1 && n <= reads;
    }

    /** How many read tools the program decides among (numbers 1 to this). */
    public int reads() {
        return reads;
    }
}
