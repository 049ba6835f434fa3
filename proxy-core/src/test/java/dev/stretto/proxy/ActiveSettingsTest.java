package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.stretto.proxy.active.ActiveMode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Flow;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.oracle.MockOracle;
import dev.stretto.trace.testing.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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
        assertEquals("active mode needs guards, the commit tool, a context file, a flow or a policy; without any"
                + " of them a session is passive", none.getMessage());
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
        assertEquals("active mode needs guards, the commit tool, a context file, a flow or a policy; without any"
                + " of them a session is passive", e.getMessage());
    }

    @Test
    void aServedFlowWithEveryOptionBecomesTheSessionsOwn() throws Exception {
        Flow shop = FlowFiles.read(Fixtures.file("home/shop.flow.json"));
        FlowSettings served = FlowSettings.builder(shop, "shop.flow.json").threshold(0.5).decider(DeciderKind.HABIT)
                .perCall(3).perSession(9).questions(0).tools(Set.of("get_user_details")).shadow(true).explore(0.1, 7)
                .taskId("t-1").log(Path.of("f.jsonl")).build();
        assertEquals(DeciderKind.HABIT, served.decider());
        ActiveMode mode = ActiveMode.of(ActiveSettings.builder().flow(served).build());
        assertEquals("shop.flow.json", mode.flow().source());
        assertEquals(new dev.stretto.proxy.flow.run.FlowOptions(0.5, DeciderKind.HABIT, 3, 9, 0,
                Set.of("get_user_details"), true, new dev.stretto.proxy.flow.decide.Exploration(0.1, 7), "t-1"),
                mode.flow().options());
        assertEquals(Path.of("f.jsonl"), mode.flow().log());
        assertEquals(DeciderKind.REACH, FlowSettings.builder(shop, "s").build().decider(), "the flow's own decider");
        ProxyStartException noArbiter = assertThrows(ProxyStartException.class,
                () -> FlowSettings.builder(shop, "shop.flow.json").decider(DeciderKind.ARBITER).build());
        assertEquals("the flow shop.flow.json was learned without a System-One model: serve it with --flow-decider"
                + " reach", noArbiter.getMessage());
    }

    @Test
    void anArbiterAndTheJudgeNeedAnOracleAndTheJudgeTheGuardsAndTheConversation() throws Exception {
        FlowSettings arbiter = FlowSettings.builder(FlowFiles.read(Fixtures.file(
                "retail-5-sessions-shipped-arbiter.flow.json")), "arbiter.flow.json").build();
        assertEquals(DeciderKind.ARBITER, arbiter.decider());
        assertEquals("the flow arbiter.flow.json decides with its arbiter, which asks the System-One model: give an"
                + " oracle", assertThrows(IllegalArgumentException.class,
                () -> ActiveSettings.builder().flow(arbiter).build()).getMessage());
        JudgeSettings judge = JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED,
                false);
        assertEquals("the confirmation judge needs the guards, the context file and an oracle",
                assertThrows(IllegalArgumentException.class, () -> ActiveSettings.builder().guards("retail")
                        .context(Path.of("c.jsonl")).judge(judge).build()).getMessage());
        try (Oracle oracle = OracleSettings.builder(OracleMode.MOCK).model("jev-9").build().open()) {
            ActiveMode mode = ActiveMode.of(ActiveSettings.builder().guards("retail").context(Path.of("c.jsonl"))
                    .judge(judge).flow(arbiter).oracle(oracle).build());
            assertSame(MockOracle.class, mode.oracle().getClass());
            assertNotNull(mode.flow());
            assertEquals("jev-9", mode.judge().model(), "the judge's questions name the oracle's model");
            assertSame(judge, mode.judge().settings(), "the judge judges with the settings given");
        }
        Oracle own = new Oracle() {
            public OracleMode mode() {
                return OracleMode.MOCK;
            }

            public String model() {
                return "m";
            }

            public void close() {
            }
        };
        assertEquals("an oracle must be opened with OracleSettings.open(), not made by a program ("
                + own.getClass().getName() + ")", assertThrows(IllegalArgumentException.class,
                () -> ActiveMode.of(ActiveSettings.builder().commit(true).oracle(own).build())).getMessage());
    }
}
