package dev.stretto.proxy.guard;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.LogBuilder;

/**
 * A session built for one rule's case: calls with their results and what the customer said,
 * then the verdict of a rule on the next call, through the episode as the proxy sees it.
 */
final class SessionSoFar {
    private final LogBuilder log = new LogBuilder();
    private final GuardDomain domain;
    private int id = 1;
    private long t = 0;

    SessionSoFar(GuardDomain domain) {
        this.domain = domain;
    }

    /** A call that succeeded with {@code result} as its text. */
    SessionSoFar ok(String tool, String args, String result) {
        log.call(t += 1000, id, tool, args).result(t += 1, id, result);
        id++;
        return this;
    }

    /** A call that came back with {@code isError: true}. */
    SessionSoFar failed(String tool, String args, String result) {
        log.call(t += 1000, id, tool, args).line(t += 1, Source.SERVER, "{\"id\":" + id
                + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":" + dev.stretto.trace.log.JsonText.quote(result)
                + ",\"type\":\"text\"}],\"isError\":true}}");
        id++;
        return this;
    }

    SessionSoFar customer(String text) {
        log.user(t += 1000, text);
        return this;
    }

    SessionSoFar agent(String text) {
        log.assistant(t += 1000, text);
        return this;
    }

    Facts facts() {
        return Facts.of(Episode.of(log.build()).events());
    }

    static ToolCall call(String tool, String args) {
        return new ToolCall("next", tool, CanonicalJson.parse(args));
    }

    /** The verdict of rule {@code ruleId} on the call {@code tool(args)} made now. */
    Verdict verdict(String ruleId, String tool, String args) {
        Rule rule = domain.rules().stream().filter(r -> r.id().equals(ruleId)).findFirst().orElseThrow();
        if (!rule.appliesTo(tool)) {
            throw new AssertionError(ruleId + " does not check " + tool);
        }
        return rule.verdict(call(tool, args), facts());
    }

    /** Every rule's verdict on {@code tool(args)} made now. */
    Judgement judge(String tool, String args) {
        return new Guards(domain).check(call(tool, args), facts());
    }
}
