package dev.stretto.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.demo.tau2.RetailDb;
import dev.stretto.demo.tau2.Tau2Retail;

import java.util.List;

/**
 * τ²-bench's retail domain: its sixteen tools, ported from τ²'s own code
 * ({@link dev.stretto.demo.tau2}), on its database, answering byte for byte as τ² does. Each
 * session works on a fresh copy of the database, so writes are seen by the session's later
 * calls and by no other session. Reads are listed read-only, writes as writes, and the two
 * tools τ² calls generic ({@code calculate}, {@code transfer_to_human_agents}) without
 * annotations.
 */
final class Tau2RetailWorld implements World {
    private final RetailDb template;
    private final Tau2Retail tools;

    /** The world on a database, of which this instance's session gets a copy. */
    Tau2RetailWorld(RetailDb template) {
        this.template = template;
        this.tools = new Tau2Retail(template.copy());
    }

    @Override
    public String name() {
        return "tau2-retail";
    }

    @Override
    public World session() {
        return new Tau2RetailWorld(template);
    }

    @Override
    public List<Tool> tools() {
        return Tau2Retail.TOOLS.stream().map(Tau2RetailWorld::tool).toList();
    }

    private static Tool tool(Tau2Retail.ToolSpec spec) {
        ObjectNode schema = DemoJson.object();
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = DemoJson.object().putArray("required");
        for (Tau2Retail.Param p : spec.params()) {
            ObjectNode property = properties.putObject(p.name());
            property.put("description", p.description());
            if (p.list()) {
                property.putObject("items").put("type", "string");
                property.put("type", "array");
            } else {
                property.put("type", "string");
            }
            required.add(p.name());
        }
        schema.set("required", required);
        schema.put("type", "object");
        Hint hint = switch (spec.kind()) {
            case READ -> Hint.READ_ONLY;
            case WRITE -> Hint.WRITE;
            case GENERIC -> Hint.NONE;
        };
        return new Tool(spec.name(), spec.description(), schema, hint);
    }

    @Override
    public ToolResult call(String tool, ObjectNode arguments) {
        Tau2Retail.Answer answer = tools.call(tool, arguments);
        return new ToolResult(answer.text(), answer.error());
    }
}
