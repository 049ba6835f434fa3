// The replaying host of the τ² benchmark: an MCP host that makes one call per LLM turn
// (see Tau2Bench.java).

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One session of stretto-proxy (or the server alone) driven as an agent drives it: each call is
 * sent once the answer to the one before has been read, and no sooner than {@link #GAP_MS}
 * after it, so that the proxy's turn rule (a call joins the turn before only within 500 ms of
 * its answer) sees every call as an LLM turn of its own.
 */
final class Tau2Host implements AutoCloseable {
    /** The pause between an answer and the next call: past the turn rule's 500 ms. */
    static final long GAP_MS = 600;
    static final String APPENDIX = "--- Also looked up automatically (current results; no need to repeat these calls) ---";
    static final String REFUSED = "Refused by the policy check, so ";
    private static final String CHANGED = "nothing changed: ";
    private static final Pattern RULE = Pattern.compile("\\(policy check ([a-z_.]+)\\)");

    /**
     * A lookup the proxy appended to an answer.
     *
     * @param tool      the tool it called
     * @param arguments its arguments
     * @param error     whether it failed
     */
    record Lookup(String tool, JsonNode arguments, boolean error) {
    }

    /**
     * An answer as the host got it.
     *
     * @param text      the server's text (the first content item)
     * @param error     {@code isError}
     * @param lookups   what the flow appended, in order
     * @param ms        from the call's first byte written to the answer's last byte read
     * @param refusedBy the policy checks that refused the call, empty when it was not refused
     */
    record Answer(String text, boolean error, List<Lookup> lookups, double ms, List<String> refusedBy) {
        boolean refused() {
            return !refusedBy.isEmpty();
        }

        /** The policy's reason for a refusal (what follows {@code nothing changed: }), empty when not refused. */
        String reason() {
            if (!refused()) {
                return "";
            }
            int at = text.indexOf(CHANGED);
            String reason = at < 0 ? text : text.substring(at + CHANGED.length());
            return reason.endsWith(".") ? reason.substring(0, reason.length() - 1) : reason;
        }
    }

    private final Runs.Proc proc;
    private final String label;
    private long gapMs = GAP_MS;
    private long lastAnswerNanos;
    private int nextId = 1;

    /** Starts {@code command} with STRETTO_SESSION set to {@code session}, initializes it and lists its tools. */
    Tau2Host(List<String> command, String session) throws IOException {
        this.label = session;
        this.proc = Runs.Proc.start(command, Map.of("STRETTO_SESSION", session));
        proc.write(Benchmark.INIT);
        proc.expectLine("\"id\":0");
        proc.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        proc.write("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}\n");
        proc.expectLine("get_order_details");
        lastAnswerNanos = System.nanoTime();
    }

    /** Sends each call as soon as the answer before it is read: for checks that do not depend on turns. */
    void noGap() {
        gapMs = 0;
    }

    /** Makes one call, once the pause since the last answer is over, and reads its answer. */
    Answer call(String tool, JsonNode arguments) throws Exception {
        long wait = lastAnswerNanos + gapMs * 1_000_000 - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        int id = nextId++;
        ObjectNode message = Tau2Task.JSON.createObjectNode();
        message.put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        message.putObject("params").put("name", tool).set("arguments", arguments);
        long t0 = System.nanoTime();
        proc.write(message + "\n");
        String line = proc.readLine();
        lastAnswerNanos = System.nanoTime();
        double ms = (lastAnswerNanos - t0) / 1e6;
        if (line == null) {
            throw new IllegalStateException(label + ": no answer to " + tool + proc.stderrTail());
        }
        JsonNode answer = Tau2Task.JSON.readTree(line);
        if (!answer.path("id").isInt() || answer.get("id").intValue() != id || !answer.has("result")) {
            throw new IllegalStateException(label + ": unexpected answer to " + tool + " (id " + id + "): " + line
                    + proc.stderrTail());
        }
        JsonNode content = answer.get("result").get("content");
        String text = content.get(0).get("text").textValue();
        boolean error = answer.get("result").path("isError").asBoolean(false);
        List<Lookup> lookups = content.size() > 1 ? lookups(content.get(1).get("text").textValue()) : List.of();
        if (content.size() > 2 || content.size() > 1 && lookups.isEmpty()) {
            throw new IllegalStateException(label + ": an answer with an item that is not the flow's: " + line);
        }
        List<String> rules = new ArrayList<>();
        if (error && text.startsWith(REFUSED)) {
            Matcher m = RULE.matcher(text);
            while (m.find()) {
                rules.add(m.group(1));
            }
            if (rules.isEmpty()) {
                rules.add("(no rule named)");
            }
        }
        return new Answer(text, error, lookups, ms, List.copyOf(rules));
    }

    /** The lookups of an appended item: {@code <tool> <arguments>[ (error)]:} and the result, each after a blank line. */
    static List<Lookup> lookups(String item) throws IOException {
        if (!item.startsWith(APPENDIX)) {
            return List.of();
        }
        List<Lookup> out = new ArrayList<>();
        int at = APPENDIX.length();
        while (at < item.length()) {
            if (!item.startsWith("\n\n", at)) {
                throw new IllegalStateException("the appended item is not as flows.md has it: " + item);
            }
            at += 2;
            int space = item.indexOf(' ', at);
            String tool = item.substring(at, space);
            JsonNode arguments;
            int end;
            try (JsonParser p = Tau2Task.JSON.getFactory().createParser(item.substring(space + 1))) {
                arguments = p.readValueAsTree();
                end = space + 1 + (int) p.currentLocation().getCharOffset();
            }
            boolean error = item.startsWith(" (error)", end);
            end += error ? 8 : 0;
            if (!item.startsWith(":\n", end)) {
                throw new IllegalStateException("the appended item is not as flows.md has it: " + item);
            }
            // The result runs to the next lookup's line; results of reads hold no blank line.
            int next = nextLookup(item, end + 2);
            out.add(new Lookup(tool, arguments, error));
            at = next;
        }
        return out;
    }

    private static int nextLookup(String item, int from) {
        int at = from;
        while ((at = item.indexOf("\n\n", at)) >= 0) {
            int space = item.indexOf(' ', at + 2);
            if (space > 0 && Tau2Task.READS.contains(item.substring(at + 2, space)) && item.startsWith("{", space + 1)) {
                return at;
            }
            at += 2;
        }
        return item.length();
    }

    /** Ends the session: closes its input and waits for a clean exit. */
    void end() throws Exception {
        proc.endAndAwait();
    }

    @Override
    public void close() throws IOException {
        proc.close();
    }
}
