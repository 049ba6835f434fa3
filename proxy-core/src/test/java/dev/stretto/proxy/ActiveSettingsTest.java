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
        ActiveMode mode = config.active();
        assertEquals("airline", mode.guards().domain().name());
        assertEquals(true, mode.commit());
        assertEquals(Path.of("chat.jsonl"), mode.context());
        assertEquals(null, ProxyConfig.builder(UpstreamSpec.Command.of("cat")).active((ActiveSettings) null).build()
                .active(), "no settings: passive");
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
