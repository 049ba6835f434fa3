package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.trace.manifest.ToolKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the flow's {@code sites} (stretto-learn 3.8): the read tools, and after each call (by
 * tool and whether it failed) which read tools the agent called next in training. Pairs that
 * start or end with a reply do not count; {@code feeds} stay empty, as learn writes them.
 */
public final class SiteCounts {

    private SiteCounts() {
    }

    /** The sites of the training episodes' steps. */
    public static Sites of(List<List<AgentStep>> episodes, Map<String, ToolKind> tools) {
        List<String> reads = tools.entrySet().stream().filter(t -> t.getValue() == ToolKind.READ)
                .map(Map.Entry::getKey).sorted(ByteOrder.STRINGS).toList();
        Map<Sites.Site, Map<String, Long>> next = new HashMap<>();
        for (List<AgentStep> steps : episodes) {
            for (int t = 0; t + 1 < steps.size(); t++) {
                AgentStep s = steps.get(t);
                AgentStep after = steps.get(t + 1);
                if (!s.isRespond() && !after.isRespond() && tools.get(after.tool()) == ToolKind.READ) {
                    next.computeIfAbsent(new Sites.Site(s.tool(), s.failed()), k -> new HashMap<>())
                            .merge(after.tool(), 1L, Long::sum);
                }
            }
        }
        return new Sites(reads, next, Map.of(), false);
    }
}
