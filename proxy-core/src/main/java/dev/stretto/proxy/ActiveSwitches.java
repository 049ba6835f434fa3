package dev.stretto.proxy;

import dev.stretto.proxy.guard.Guards;
import java.nio.file.Path;

/**
 * The {@link ActiveSettings} that {@link ActiveSettings.Builder} makes: the three switches, checked.
 *
 * @param guards  the guards' domain, or null
 * @param commit  whether the commit tool is added
 * @param context the conversation file, or null
 */
record ActiveSwitches(String guards, boolean commit, Path context) implements ActiveSettings {

    /**
     * @throws IllegalArgumentException when nothing is switched on (that is passive mode: give
     *                                  no settings), or {@code guards} names a domain without guards
     */
    ActiveSwitches {
        if (guards == null && !commit && context == null) {
            throw new IllegalArgumentException("active mode needs guards, the commit tool or a context file;"
                    + " without any of them a session is passive");
        }
        if (guards != null && Guards.forDomain(guards).isEmpty()) {
            throw new IllegalArgumentException("no guards for " + guards + " (domains with guards: "
                    + Guards.domainNames() + ")");
        }
    }
}
