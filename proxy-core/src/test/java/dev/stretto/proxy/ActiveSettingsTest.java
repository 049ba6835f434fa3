package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.active.ActiveMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Active mode as a program configures it, through the module's API package. */
class ActiveSettingsTest {

    @Test
    void theSettingsBecomeTheSessionsActiveModeWithTheDomainsGuards() {
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("cat"))
                .active(ActiveSettings.builder().guards("airline").commit(true).context(Path.of("chat.jsonl")).build())
                .build();
        assertEquals("airline", config.active().guards());
        ActiveMode mode = ActiveMode.of(config.active());
        assertEquals("airline", mode.policy().domain().name());
        assertEquals(true, mode.commit());
        assertEquals(Path.of("chat.jsonl"), mode.context());
        assertEquals(null, ProxyConfig.builder(UpstreamSpec.Command.of("cat")).active(null).build().active(),
                "no settings: passive");
    }

    /** A program's own settings, checked as the builder's are when the configuration is made. */
    private record Own(String guards, boolean commit, Path context) implements ActiveSettings {
    }

    @Test
    void settingsAProgramImplementsItselfAreTakenAndCheckedWhenTheConfigurationIsMade() {
        ProxyConfig.Builder config = ProxyConfig.builder(UpstreamSpec.Command.of("cat"));
        assertEquals("retail", ActiveMode.of(config.active(new Own("retail", false, null)).build().active())
                .policy().domain().name());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> config.active(new Own(null, false, null)).build());
        assertEquals("active mode needs guards, the commit tool or a context file; without any of them a session is"
                + " passive", none.getMessage());
        IllegalArgumentException shop = assertThrows(IllegalArgumentException.class,
                () -> config.active(new Own("shop", true, null)).build());
        assertEquals("no guards for shop (domains with guards: retail or airline)", shop.getMessage());
    }

    @Test
    void aDomainWithoutGuardsIsRefusedWithTheDomainsThatHaveThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ActiveSettings.builder().guards("shop").build());
        assertEquals("no guards for shop (domains with guards: retail or airline)", e.getMessage());
        assertEquals(List.of("retail", "airline"), ActiveSettings.guardedDomains());
    }

    @Test
    void settingsThatSwitchNothingOnAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ActiveSettings.builder().build());
        assertEquals("active mode needs guards, the commit tool or a context file; without any of them a session is"
                + " passive", e.getMessage());
    }
}
