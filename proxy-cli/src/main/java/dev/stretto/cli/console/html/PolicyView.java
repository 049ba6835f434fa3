package dev.stretto.cli.console.html;

import dev.stretto.proxy.PendingApproval;
import dev.stretto.proxy.PolicyVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The policy's verdicts ({@code --policy}): under the call each judged, or as a step of the
 * timeline for a listing, a changed tool or a request of the server's; and the calls that wait
 * for a person's approval, with the commands that answer them (the console only shows: it
 * answers GET alone).
 */
final class PolicyView {

    private PolicyView() {
    }

    /** The kind of a verdict, for its colour: refused, held, logged or let through. */
    static String kind(PolicyVerdict v) {
        if (v.action().refuses() || v.answer() != null && v.answer() != PolicyVerdict.Answer.WAITING
                && v.answer() != PolicyVerdict.Answer.APPROVED) {
            return "refused";
        }
        return v.answer() == PolicyVerdict.Answer.WAITING ? "unknown" : v.answer() != null ? "agreed" : "logged";
    }

    /** What the verdict did, in words. */
    static String verdict(PolicyVerdict v) {
        String by = v.rule() == null ? "the policy" : v.rule().equals("pinning") || v.rule().equals("server_requests")
                ? v.rule() : "rule " + v.rule();
        String what;
        if (v.answer() != null) {
            what = switch (v.answer()) {
                case WAITING -> "held for a person's approval (id " + v.approval() + ")";
                case APPROVED -> "approved by a person";
                case DENIED, TIMED_OUT, CANCELLED, SESSION_ENDED -> "refused";
            };
        } else {
            what = switch (v.kind()) {
                case CALL -> switch (v.action()) {
                    case ALLOW -> "allowed";
                    case LOG -> "logged";
                    case ASK -> "asked";
                    case DENY, HIDE -> "refused";
                };
                case LISTING -> v.name() + " left out of the listing";
                case PINNING -> v.name() + " changed since it was first listed";
                case SERVER_REQUEST -> "the server's " + v.name() + " answered with an error, not shown to the host";
            };
        }
        return what + " (" + by + ")";
    }

    static void write(Html m, PolicyVerdict v) {
        m.open("div", "class", "judge " + kind(v));
        m.el("span", "Policy", "class", "j-title");
        m.el("span", verdict(v), "class", "j-verdict");
        if (v.reason() != null) {
            m.el("span", v.reason(), "class", "dim");
        }
        List<String> also = v.matched().stream().filter(id -> !id.equals(v.rule())).toList();
        if (!also.isEmpty()) {
            m.el("p", "also matched: " + String.join(", ", also), "class", "j-flag");
        }
        m.close("div");
    }

    /** The calls held for a person: each with its tool, arguments, rule, time left, and the commands. */
    static void pending(Html m, List<PendingApproval> calls) {
        if (calls.isEmpty()) {
            return;
        }
        m.open("section", "class", "card", "aria-label", "waiting for approval");
        m.open("div", "class", "card-head").el("h2", "Waiting for approval");
        m.el("span", "answer with stretto approve ID or stretto deny ID", "class", "hint").close("div");
        m.open("ol", "class", "calls");
        Instant now = Instant.now();
        for (PendingApproval p : calls) {
            m.open("li", "class", "call");
            m.open("div", "class", "judge unknown");
            m.el("span", p.tool(), "class", "j-title");
            m.el("span", Format.oneLine(JsonView.compact(p.arguments()), 140), "class", "c-args");
            m.el("span", "rule " + p.rule() + " \u00b7 " + Math.max(0, Duration.between(now, p.deadline()).toSeconds())
                    + " s left", "class", "dim");
            m.el("p", "stretto approve " + p.id() + "    stretto deny " + p.id() + " --reason ...", "class",
                    "j-flag mono");
            m.close("div");
            m.close("li");
        }
        m.close("ol");
        m.close("section");
    }
}
