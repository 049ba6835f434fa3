package dev.stretto.proxy.guard;

import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The policy guards of one domain ({@code --guards --domain NAME}): which calls they check
 * and every applicable rule's verdict on a call. Immutable; the facts a check reads are the
 * caller's.
 */
public final class Guards {

    /** Every domain that has guards. A new domain is one new {@link GuardDomain} added here. */
    public static final List<GuardDomain> DOMAINS = List.of(new RetailGuards(), new AirlineGuards());

    private final GuardDomain domain;

    /** The guards of {@code domain}. */
    public Guards(GuardDomain domain) {
        this.domain = Objects.requireNonNull(domain, "domain");
    }

    /** The guards of the domain named {@code name}, if it has any. */
    public static Optional<Guards> forDomain(String name) {
        return DOMAINS.stream().filter(d -> d.name().equals(name)).findFirst().map(Guards::new);
    }

    /** The names of the domains with guards, as a usage message lists them: {@code retail or airline}. */
    public static String domainNames() {
        List<String> names = DOMAINS.stream().map(GuardDomain::name).toList();
        if (names.size() == 1) {
            return names.getFirst();
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }

    /** The domain. */
    public GuardDomain domain() {
        return domain;
    }

    /** Whether any rule checks calls of {@code tool}. */
    public boolean checks(String tool) {
        for (Rule r : domain.rules()) {
            if (r.appliesTo(tool)) {
                return true;
            }
        }
        return false;
    }

    /** Every applicable rule's verdict on {@code call}, given what the session showed before it. */
    public Judgement check(ToolCall call, Facts facts) {
        List<Judgement.Checked> verdicts = new ArrayList<>();
        for (Rule r : domain.rules()) {
            if (r.appliesTo(call.name())) {
                verdicts.add(new Judgement.Checked(r, r.verdict(call, facts)));
            }
        }
        return new Judgement(call.name(), verdicts);
    }
}
