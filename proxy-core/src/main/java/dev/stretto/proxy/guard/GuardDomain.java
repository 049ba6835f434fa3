package dev.stretto.proxy.guard;

import java.util.List;

/**
 * The policy guards of one domain: its name (the value of {@code --domain}) and its rules, in
 * the order their verdicts are reported. A new domain is one new class implementing this,
 * listed in {@link Guards#DOMAINS}.
 */
public interface GuardDomain {

    /** The domain's name, as {@code --domain} gives it. */
    String name();

    /** The domain's rules, in report order. */
    List<Rule> rules();
}
