package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.predict.AgentStep;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The flow's actions: {@code Respond} (id 0), then every tool sorted by name in byte order;
 * one more id, {@link #size()}, stands for any other action.
 */
public final class Vocab {

    private final List<String> tools;
    private final Map<String, Integer> ids = new HashMap<>();

    private Vocab(List<String> tools) {
        this.tools = List.copyOf(tools);
        for (int i = 0; i < tools.size(); i++) {
            ids.put(tools.get(i), i + 1);
        }
    }

    /** The vocab of the tools the steps called and the manifest lists. */
    public static Vocab of(Collection<List<AgentStep>> episodes, Collection<String> manifestTools) {
        TreeSet<String> names = new TreeSet<>(ByteOrder.STRINGS);
        for (List<AgentStep> steps : episodes) {
            for (AgentStep s : steps) {
                if (!s.isRespond()) {
                    names.add(s.tool());
                }
            }
        }
        names.addAll(manifestTools);
        return new Vocab(new ArrayList<>(names));
    }

    /** The tools, in id order (id 1 first). */
    public List<String> tools() {
        return tools;
    }

    /** The number of listed actions ({@code Respond} and the tools). */
    public int size() {
        return tools.size() + 1;
    }

    /** The model's vocab size: the listed actions and the one for anything else. */
    public int modelSize() {
        return size() + 1;
    }

    /** The id of a step's action. */
    public int id(AgentStep s) {
        return s.isRespond() ? 0 : idOf(s.tool());
    }

    /** The id of a tool, or the id for anything else when it is not listed. */
    public int idOf(String tool) {
        Integer id = ids.get(tool);
        return id == null ? size() : id;
    }
}
