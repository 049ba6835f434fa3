package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.proxy.ActiveSettings;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the console's guards page reads through proxy-core: the domains that have policy
 * guards, and a session's writes replayed through its domain's guards as {@code stretto
 * guards} replays them ({@link dev.stretto.proxy.GuardReplay}). The one class of that page
 * that touches proxy-core.
 */
final class ConsoleGuardSource {

    Set<String> guardedDomains() {
        return new TreeSet<>(ActiveSettings.guardedDomains());
    }

    GuardReplay guards(SessionLog log) {
        String name = log.header().domain();
        if (name == null || !ActiveSettings.guardedDomains().contains(name)) {
            return new GuardReplay(null, name == null ? "the log names no domain" : "no guards for " + name,
                    List.of(), List.of());
        }
        dev.stretto.proxy.GuardReplay replay = dev.stretto.proxy.GuardReplay.of(log, name);
        List<GuardReplay.Rule> rules = new ArrayList<>();
        Map<String, GuardReplay.Rule> byId = new HashMap<>();
        for (dev.stretto.proxy.GuardReplay.Rule r : replay.rules()) {
            GuardReplay.Rule rule = new GuardReplay.Rule(r.id(), r.enforced());
            rules.add(rule);
            byId.put(r.id(), rule);
        }
        List<GuardReplay.Write> writes = new ArrayList<>();
        for (dev.stretto.proxy.GuardReplay.Write w : replay.writes()) {
            List<GuardReplay.RuleVerdict> verdicts = new ArrayList<>();
            for (dev.stretto.proxy.GuardReplay.Check c : w.checks()) {
                GuardReplay.Rule rule = byId.getOrDefault(c.rule().id(),
                        new GuardReplay.Rule(c.rule().id(), c.rule().enforced()));
                verdicts.add(new GuardReplay.RuleVerdict(rule, c.outcome().word(), c.reason()));
            }
            writes.add(new GuardReplay.Write(w.tMs(), w.call().id(), w.call().name(), w.call().arguments(),
                    w.from() == Source.PROXY, w.refused(), verdicts));
        }
        return new GuardReplay(replay.domain(), null, rules, writes);
    }
}
