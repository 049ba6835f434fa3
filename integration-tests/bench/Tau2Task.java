// One τ²-bench retail train task: the expert's calls and what τ²'s own tools answer to each
// (testdata/tau2-retail: tasks-train.json and goldens.jsonl). See Tau2Bench.java.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * @param id           τ²'s task id
 * @param calls        the expert's calls, in order, each with τ²'s answer
 * @param customerSays what the customer says first in the benchmark's conversation: what τ²'s
 *                     user simulator is told it knows, then why it calls (its {@code known_info}
 *                     and {@code reason_for_call})
 */
record Tau2Task(String id, List<Call> calls, String customerSays) {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The tools τ² calls READ: the only ones a flow may look up. */
    static final Set<String> READS = Set.of("find_user_id_by_email", "find_user_id_by_name_zip", "get_user_details",
            "get_order_details", "get_product_details", "get_item_details", "list_all_product_types");
    static final Set<String> WRITES = Set.of("cancel_pending_order", "modify_pending_order_address",
            "modify_pending_order_items", "modify_pending_order_payment", "modify_user_address",
            "return_delivered_order_items", "exchange_delivered_order_items");

    /**
     * @param tool      the tool
     * @param arguments its arguments
     * @param text      τ²'s answer on a fresh database after the calls before it
     * @param error     whether τ² answered with an error
     */
    record Call(String tool, ObjectNode arguments, String text, boolean error) {
        boolean isRead() {
            return READS.contains(tool);
        }

        boolean isWrite() {
            return WRITES.contains(tool);
        }
    }

    /** Whether the expert authenticates the user (by e-mail or by name and zip code) before its first write. */
    boolean authenticates() {
        for (Call c : calls) {
            if (c.isWrite()) {
                return false;
            }
            if (c.tool().startsWith("find_user_id_by_") && !c.error()) {
                return true;
            }
        }
        return false;
    }

    static List<Tau2Task> readAll(Path data) throws IOException {
        Map<String, List<Call>> answers = new HashMap<>();
        for (String line : Files.readAllLines(data.resolve("goldens.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode g = JSON.readTree(line);
            String session = g.get("session").textValue();
            if (session.startsWith("task ")) {
                answers.computeIfAbsent(session.substring(5), k -> new ArrayList<>()).add(new Call(
                        g.get("tool").textValue(), (ObjectNode) g.get("arguments"), g.get("text").textValue(),
                        g.get("error").booleanValue()));
            }
        }
        List<Tau2Task> tasks = new ArrayList<>();
        for (JsonNode t : JSON.readTree(data.resolve("tasks-train.json").toFile())) {
            String id = t.get("id").textValue();
            JsonNode actions = t.get("evaluation_criteria").get("actions");
            List<Call> calls = answers.getOrDefault(id, List.of());
            if (calls.size() != actions.size()) {
                throw new IllegalStateException("goldens.jsonl has " + calls.size() + " answers for task " + id
                        + ", which has " + actions.size() + " actions: make them again (testdata/tau2-retail/README.md)");
            }
            for (int i = 0; i < calls.size(); i++) {
                JsonNode a = actions.get(i);
                if (!a.get("name").textValue().equals(calls.get(i).tool()) || !a.get("arguments").equals(calls.get(i).arguments())) {
                    throw new IllegalStateException("goldens.jsonl does not match task " + id + "'s action " + i);
                }
            }
            JsonNode told = t.path("user_scenario").path("instructions");
            String says = (told.path("known_info").asText("") + " " + told.path("reason_for_call").asText("")).strip();
            tasks.add(new Tau2Task(id, List.copyOf(calls), says));
        }
        return tasks;
    }
}
