package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Judgement;
import dev.stretto.proxy.guard.Replay;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the console's guards page reads through proxy-core: the domains that have policy
 * guards, and a session's writes replayed through its domain's guards as {@code stretto
 * guards} replays them. The one class of that page that touches proxy-core's own packages.
 */
final class ConsoleGuardSource {

    Set<String> guardedDomains() {
        Set<String> names = new TreeSet<>();
        for (var d : Guards.DOMAINS) {
            names.add(d.name());
        }
        return names;
    }

    GuardReplay guards(SessionLog log) {
        String name = log.header().domain();
        Optional<Guards> guards = name == null ? Optional.empty() : Guards.forDomain(name);
        if (guards.isEmpty()) {
            return new GuardReplay(null, name == null ? "the log names no domain" : "no guards for " + name,
                    List.of(), List.of());
        }
        List<GuardReplay.Rule> rules = new ArrayList<>();
        Map<String, GuardReplay.Rule> byId = new HashMap<>();
        for (var r : guards.get().domain().rules()) {
            GuardReplay.Rule rule = new GuardReplay.Rule(r.id(), r.enforced());
            rules.add(rule);
            byId.put(r.id(), rule);
        }
        List<GuardReplay.Write> writes = new ArrayList<>();
        for (Replay.Write w : Replay.of(log, guards.get())) {
            List<GuardReplay.RuleVerdict> verdicts = new ArrayList<>();
            for (Judgement.Checked c : w.judgement().verdicts()) {
                GuardReplay.Rule rule = byId.getOrDefault(c.rule().id(),
                        new GuardReplay.Rule(c.rule().id(), c.rule().enforced()));
                verdicts.add(new GuardReplay.RuleVerdict(rule, c.verdict().word(), c.verdict().reason()));
            }
            writes.add(new GuardReplay.Write(w.tMs(), w.call().id(), w.call().name(), w.call().arguments(),
                    w.from() == Source.PROXY, w.judgement().refused(), verdicts));
        }
        return new GuardReplay(guards.get().domain().name(), null, rules, writes);
    }
}
