package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.policy.ApprovalFiles;
import dev.stretto.proxy.policy.Decision;
import dev.stretto.proxy.policy.Pinning;
import dev.stretto.proxy.policy.PolicyRules;
import dev.stretto.proxy.policy.PolicySession;
import dev.stretto.proxy.policy.Verdicts;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A session's policy in the actor ({@code --policy FILE}): the last of the checks every call
 * passes, and the part that rewrites {@code tools/list} answers, answers the server's own
 * requests the policy denies, holds calls for a person's approval, and ends the session when a
 * pinned tool changes and the policy says so.
 *
 * <p>Calls. A call is decided by the {@link PolicySession} against the session so far: allowed
 * (and, for {@code log}, its verdict logged), refused before the server sees it, or held: an
 * {@code ask} writes the call to the session's approvals directory ({@link ApprovalFiles}),
 * tells stderr the commands that answer it, and looks for the answer on every tick of the
 * actor's clock until its timeout denies it. The host sees a slow call; other traffic flows.
 * Before deciding, a call is held to what the policy reads: a tool name that differs from a
 * listed tool's only in case or white space, or an argument key that differs only in case
 * from a key a condition looks up, is refused, since a server matching names without regard to
 * case would run what the policy did not check.
 *
 * <p>Every verdict but a plain allow is a {@code proxy} entry in the log ({@link
 * PolicyVerdict}). Actor thread only.
 */
final class PolicyGate implements CallCheck {

    private final PolicyRules rules;
    private final PolicySession session;
    private final ApprovalFiles approvals;
    private final String sessionId;
    private final Ledger ledger;
    private final Sides sides;
    private final LongSupplier ticker;
    private final long startNanos;
    private final Consumer<String> endSession;
    // Actor thread only: the calls held for a person, by approval id, in the order they came.
    private final Map<String, Held> held = new LinkedHashMap<>();
    private String ended;

    /** A call held for a person's answer. */
    private record Held(String approval, ToolCall call, Decision decision, Context context,
                        Consumer<Outcome> then, long deadlineNanos) {
    }

    /**
     * @param policy     the policy and the session's approvals directory
     * @param sessionId  the session's id, for the approvals' files
     * @param ticker     the actor's clock, in nanoseconds
     * @param startNanos the clock's reading at the session's start
     * @param endSession ends the session, saying why (pinning {@code end})
     */
    PolicyGate(ToolPolicy policy, String sessionId, Ledger ledger, Sides sides, LongSupplier ticker, long startNanos,
               Consumer<String> endSession) {
        this.rules = policy.rules();
        this.session = new PolicySession(rules);
        this.approvals = policy.approvals() == null ? null : new ApprovalFiles(policy.approvals());
        this.sessionId = sessionId;
        this.ledger = ledger;
        this.sides = sides;
        this.ticker = ticker;
        this.startNanos = startNanos;
        this.endSession = endSession;
    }

    private long nowMs() {
        return Math.max(0, (ticker.getAsLong() - startNanos) / 1_000_000);
    }

    /** Writes {@code verdict} to the log as the proxy's, sent to neither side. */
    private void log(PolicyVerdict verdict) {
        ledger.record(Source.PROXY, new Line(ProxyLines.bytes(entry(verdict)), true));
    }

    private static ObjectNode entry(PolicyVerdict verdict) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("jsonrpc", "2.0");
        n.put("method", PolicyVerdict.METHOD);
        n.set("params", verdict.toJson());
        return n;
    }

    // ---- calls

    /**
     * The policy reads names as they are written; {@link #check} refuses the names a server
     * could read otherwise, so the lower-case rule of {@link CallCheck#appliesTo} is not needed.
     */
    @Override
    public boolean appliesTo(String tool) {
        return false;
    }

    @Override
    public void check(ToolCall call, Context context, Consumer<Outcome> then) {
        String tool = call.name();
        JsonNode args = call.arguments();
        String misread = session.misreadName(tool, KeyScan::fold);
        if (misread == null) {
            misread = session.misreadKey(tool, args, KeyScan::fold);
        }
        if (misread != null) {
            String message = "Refused by the policy check, so " + tool + " was not run and nothing changed: " + misread
                    + " (policy).";
            context.log(entry(new PolicyVerdict(nowMs(), PolicyVerdict.Kind.CALL, tool, call.id(), args,
                    PolicyAction.DENY, null, java.util.List.of(), misread, null, null)));
            then.accept(new Refused(misread, message));
            return;
        }
        long now = nowMs();
        Decision d = session.decide(tool, args, now);
        switch (d.action()) {
            case ALLOW -> {
                session.sent(tool, d, now);
                then.accept(new Allowed());
            }
            case LOG -> {
                context.log(entry(Verdicts.call(now, tool, call.id(), args, d, null, null)));
                Logger.info("logged {} ({}){}", tool, d.by(), d.reason() == null ? "" : ": " + d.reason());
                session.sent(tool, d, now);
                then.accept(new Allowed());
            }
            case DENY, HIDE -> {
                context.log(entry(Verdicts.call(now, tool, call.id(), args, d, null, null)));
                then.accept(new Refused(d.reason() + " (" + d.by() + ")", d.refusal(tool)));
            }
            case ASK -> ask(call, d, context, then);
        }
    }

    private void ask(ToolCall call, Decision d, Context context, Consumer<Outcome> then) {
        String tool = call.name();
        Duration timeout = rules.askTimeout();
        Instant asked = Instant.now();
        String id;
        try {
            if (approvals == null) {
                throw new IOException("the session has no place for them (it is not recorded, and no home directory"
                        + " is known)");
            }
            id = approvals.ask(sessionId, tool, call.arguments(), d.rule(), d.reason(), asked, asked.plus(timeout));
        } catch (IOException e) {
            String why = "no one can approve it: the approvals cannot be written (" + e.getMessage() + ")";
            context.log(entry(Verdicts.settled(nowMs(), tool, call.id(), call.arguments(), d, null,
                    PolicyVerdict.Answer.DENIED, why)));
            then.accept(new Refused(why + " (" + d.by() + ")", d.refusal(tool, why)));
            return;
        }
        context.log(entry(Verdicts.call(nowMs(), tool, call.id(), call.arguments(), d, id,
                PolicyVerdict.Answer.WAITING)));
        Logger.warn("{} waits for a person's approval ({}): run 'stretto approve {}' or 'stretto deny {}' within {}",
                tool, d.by(), id, id, seconds(timeout));
        held.put(id, new Held(id, call, d, context, then, ticker.getAsLong() + timeout.toNanos()));
    }

    @Override
    public boolean needsClock() {
        return !held.isEmpty();
    }

    /** Looks for the answers to the calls held, and denies those whose time is up. */
    @Override
    public void tick() {
        if (held.isEmpty()) {
            return;
        }
        long now = ticker.getAsLong();
        // Settling a call runs the rest of the chain, which may hold another: copy first.
        for (Held h : java.util.List.copyOf(held.values())) {
            if (!held.containsKey(h.approval())) {
                continue;
            }
            var answer = approvals.decision(h.approval());
            if (answer.isPresent()) {
                settle(h, answer.get().approved() ? PolicyVerdict.Answer.APPROVED : PolicyVerdict.Answer.DENIED,
                        answer.get().reason());
            } else if (now - h.deadlineNanos() >= 0) {
                settle(h, PolicyVerdict.Answer.TIMED_OUT, null);
            }
        }
    }

    /** The host cancelled a request ({@code notifications/cancelled}): a call held for it is let go. */
    void cancelled(JsonNode notification) {
        JsonNode requestId = notification.path("params").get("requestId");
        if (requestId == null || requestId.isNull() || held.isEmpty()) {
            return;
        }
        String id = ToolCall.idText(requestId);
        for (Held h : java.util.List.copyOf(held.values())) {
            if (h.call().id().equals(id)) {
                settle(h, PolicyVerdict.Answer.CANCELLED, null);
            }
        }
    }

    private void settle(Held h, PolicyVerdict.Answer answer, String personsReason) {
        if (answer == PolicyVerdict.Answer.APPROVED && (ended != null || sides.serverGone())) {
            answer = PolicyVerdict.Answer.SESSION_ENDED;
        }
        held.remove(h.approval());
        approvals.done(h.approval());
        String tool = h.call().name();
        Decision d = h.decision();
        String why = switch (answer) {
            case APPROVED -> "a person approved it";
            case DENIED -> "a person denied it" + (personsReason == null ? "" : ": " + personsReason);
            case TIMED_OUT -> "no one approved it within " + seconds(rules.askTimeout());
            case CANCELLED -> "the host cancelled it while it waited for approval";
            case SESSION_ENDED, WAITING -> "the session ended while it waited for approval";
        };
        h.context().log(entry(Verdicts.settled(nowMs(), tool, h.call().id(), h.call().arguments(), d, h.approval(),
                answer, why)));
        if (answer == PolicyVerdict.Answer.APPROVED) {
            Logger.info("{} approved ({}); sent to the server", tool, h.approval());
            session.sent(tool, d, nowMs());
            h.then().accept(new Allowed());
        } else {
            // The refusal is said where the call is answered.
            h.then().accept(new Refused(why + " (" + d.by() + ")", d.refusal(tool, why)));
        }
    }

    /** The session is over: the calls still held are let go, their files removed. */
    @Override
    public void close() {
        for (Held h : java.util.List.copyOf(held.values())) {
            held.remove(h.approval());
            approvals.done(h.approval());
            log(Verdicts.settled(nowMs(), h.call().name(), h.call().id(), h.call().arguments(), h.decision(),
                    h.approval(), PolicyVerdict.Answer.SESSION_ENDED, "the session ended while it waited for approval"));
        }
    }

    // ---- listings

    /**
     * A {@code tools/list} answer from the server: the tools the policy hides left out (and with
     * pinning {@code deny} the changed ones), each logged; with pinning {@code end} and a change,
     * an error in its place and the session ended. Returns the answer the host is to get, or
     * null when it goes as it came.
     */
    JsonNode listing(JsonNode response) {
        if (response == null || !response.isObject()) {
            return null;
        }
        if (ended != null) {
            return endedAnswer(response.get("id"));
        }
        JsonNode tools = response.path("result").get("tools");
        PolicySession.Listing l = session.listed(tools);
        long now = nowMs();
        for (PolicySession.Change c : l.changes()) {
            log(Verdicts.changed(now, c, rules.pinning()));
            if (rules.pinning() != Pinning.END) {
                Logger.warn("{} ({})", c.text(), rules.pinning() == Pinning.DENY
                        ? "pinning: deny; its calls are refused and it is left out of the listing" : "pinning: log");
            }
        }
        if (l.end()) {
            ended = String.join("; ", l.changes().stream().map(PolicySession.Change::text).toList());
            Logger.error("{}; the policy ends the session (pinning: end)", ended);
            JsonNode answer = endedAnswer(response.get("id"));
            endSession.accept(ended);
            return answer;
        }
        if (l.hidden().isEmpty()) {
            return null;
        }
        Set<String> hidden = new HashSet<>();
        for (PolicySession.Hidden h : l.hidden()) {
            hidden.add(h.tool());
            log(Verdicts.hidden(now, h));
        }
        ObjectNode copy = response.deepCopy();
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        for (JsonNode t : tools) {
            JsonNode name = t.get("name");
            if (name == null || !name.isTextual() || !hidden.contains(name.textValue())) {
                kept.add(t);
            }
        }
        ((ObjectNode) copy.get("result")).set("tools", kept);
        return copy;
    }

    /** Why the policy ended the session, or null while it has not. */
    String ended() {
        return ended;
    }

    /** The error a request of the host's gets once the policy has ended the session. */
    ObjectNode endedAnswer(JsonNode id) {
        return ProxyLines.error(id == null ? JsonNodeFactory.instance.nullNode() : id, CallReader.INVALID_REQUEST,
                "The session was ended by the policy: " + ended + ".");
    }

    // ---- the server's requests

    /**
     * A line of the server's: when it is one of the requests the policy denies, it is answered
     * to the server with an error, logged, and never reaches the host (true). A batch holding
     * such a request, or a line that could be read as one (a method key twice, or in another
     * case), is not forwarded either.
     */
    boolean serverLine(Line line, JsonRpcPeek peek) {
        if (rules.serverRequests().isEmpty()) {
            return false;
        }
        String denied = null;
        for (Map.Entry<String, PolicyAction> e : rules.serverRequests().entrySet()) {
            if (e.getValue() == PolicyAction.DENY && AnySpelling.mentions(line.bytes(), e.getKey())) {
                denied = e.getKey();
                break;
            }
        }
        if (denied == null) {
            return false;
        }
        if (peek.kind() == JsonRpcPeek.Kind.REQUEST && denied.equals(peek.method()) && !twinKeys(line)) {
            refuseServerRequest(line, denied, ProxyLines.parse(line.bytes()).get("id"));
            return true;
        }
        JsonNode tree = ProxyLines.parse(line.bytes());
        if (tree == null) {
            return false;
        }
        boolean refused = false;
        for (JsonNode m : tree.isArray() ? tree : java.util.List.of(tree)) {
            JsonNode method = m.get("method");
            if (m.isObject() && (method != null && isDenied(method.asText()) || twinKeys(line) && hasMethodKey(m))) {
                refused = true;
            }
        }
        if (!refused) {
            return false;
        }
        long t = ledger.record(Source.SERVER, line);
        for (JsonNode m : tree.isArray() ? tree : java.util.List.of(tree)) {
            JsonNode id = m.get("id");
            if (m.isObject() && m.has("method") && id != null && !id.isNull()) {
                answerServer(m.path("method").asText(), id, t);
            }
        }
        Logger.info("the server's {} was not passed to the host: the policy denies it", denied);
        return true;
    }

    private boolean isDenied(String method) {
        return rules.serverRequest(method) == PolicyAction.DENY;
    }

    private static boolean hasMethodKey(JsonNode m) {
        for (Iterator<String> it = m.fieldNames(); it.hasNext(); ) {
            if (it.next().toLowerCase(Locale.ROOT).contains("method")) {
                return true;
            }
        }
        return false;
    }

    private static boolean twinKeys(Line line) {
        try {
            return KeyScan.of(line.bytes()).stream().anyMatch(KeyScan.Message::twinKeys);
        } catch (IOException e) {
            return true;
        }
    }

    private void refuseServerRequest(Line line, String method, JsonNode id) {
        long t = ledger.record(Source.SERVER, line);
        answerServer(method, id, t);
        Logger.info("the server's {} was not passed to the host: the policy denies it", method);
    }

    private void answerServer(String method, JsonNode id, long t) {
        log(Verdicts.serverRequest(t, method, ToolCall.idText(id)));
        ObjectNode error = ProxyLines.error(id, -1, "Refused by the policy check: "
                + Verdicts.serverRefusal(method) + " (policy server_requests).");
        Line answer = new Line(ProxyLines.bytes(error), true);
        ledger.record(Source.PROXY, answer);
        if (!sides.serverGone()) {
            sides.toServer(answer);
        }
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
