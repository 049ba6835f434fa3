package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.flow.DeciderKind;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProxyArgsTest {

    private static ProxyOptions ok(String... args) {
        return assertInstanceOf(ProxyArgs.Run.class, ProxyArgs.parse(List.of(args))).options();
    }

    private static String error(String... args) {
        return assertInstanceOf(ProxyArgs.Invalid.class, ProxyArgs.parse(List.of(args))).message();
    }

    @Test
    void optionsTakeTheirValueNextOrAfterEquals() {
        ProxyOptions o = ok("--record", "~/logs", "--domain=orders", "--agent-model", "claude", "--retain-days=30",
                "--", "npx", "-y", "srv", "--record", "x");
        assertEquals(Path.of("~/logs"), o.record());
        assertEquals("orders", o.domain());
        assertEquals("claude", o.agentModel());
        assertEquals(30, o.retainDays());
        assertEquals(new ServerChoice.Command(List.of("npx", "-y", "srv", "--record", "x")), o.server());
    }

    @Test
    void onlyTheCommandIsRequired() {
        ProxyOptions o = ok("--", "cat");
        assertEquals(new ProxyOptions(null, null, null, null, null, null, new ServerChoice.Command(List.of("cat"))), o);
    }

    @Test
    void recordSyncIsASwitchForTheRecordLog() {
        assertTrue(ok("--record", "d", "--record-sync", "--", "cat").recordSync());
        assertTrue(ok("--record-sync", "--record=d", "--upstream", "http://127.0.0.1:3001/mcp").recordSync());
        assertFalse(ok("--record", "d", "--", "cat").recordSync());
        assertEquals("--record-sync forces the --record log to disk before each line is forwarded; give --record DIR"
                + " too", error("--record-sync", "--", "cat"));
        assertEquals("--record-sync takes no value", error("--record", "d", "--record-sync=yes", "--", "cat"));
        assertEquals("--record-sync is given more than once",
                error("--record", "d", "--record-sync", "--record-sync", "--", "cat"));
    }

    @Test
    void logLevelIsCaseInsensitive() {
        assertEquals("debug", ok("--log-level", "DEBUG", "--", "cat").logLevel());
    }

    @Test
    void helpAndVersionWinWhereverTheyAre() {
        assertInstanceOf(ProxyArgs.Help.class, ProxyArgs.parse(List.of("--record", "d", "--help")));
        assertInstanceOf(ProxyArgs.Help.class, ProxyArgs.parse(List.of("-h")));
        assertInstanceOf(ProxyArgs.Version.class, ProxyArgs.parse(List.of("--version", "--", "cat")));
        assertInstanceOf(ProxyArgs.Version.class, ProxyArgs.parse(List.of("-V")));
    }

    @Test
    void usageErrorsSayWhatIsWrongInOneLine() {
        assertEquals("unknown option --recrod", error("--recrod", "/tmp", "--", "cat"));
        assertEquals("unknown option --recrod", error("--recrod=/tmp", "--", "cat"));
        assertEquals("unknown option -x", error("-x", "--", "cat"));
        assertEquals("--record needs a value", error("--record"));
        assertEquals("--record needs a value", error("--record", "--", "cat"));
        assertEquals("--domain needs a value", error("--domain=", "--", "cat"));
        assertEquals("--domain is given more than once", error("--domain", "a", "--domain=b", "--", "cat"));
        assertEquals("missing the server command after --", error("--record", "/tmp", "--"));
        assertEquals("the server command after -- starts with an empty program name", error("--", "", "x"));
        assertEquals("the server command after -- starts with an empty program name", error("--", " "));
        String which = "missing the server: give the server as -- SERVER_COMMAND... (e.g. stretto-proxy -- npx -y"
                + " some-mcp-server) or as --upstream URL";
        assertEquals(which, error("--record", "/tmp"));
        assertEquals(which, error());
        assertEquals("unexpected argument 'cat' (put the server command after --, or use --upstream URL)",
                error("cat"));
        assertEquals("--retain-days needs a whole number of days (0 or more), not 'week'",
                error("--record", "d", "--retain-days", "week", "--", "cat"));
        assertEquals("--retain-days needs a whole number of days (0 or more), not '-3'",
                error("--record", "d", "--retain-days=-3", "--", "cat"));
        assertEquals("--retain-days cleans the --record directory; give --record DIR too",
                error("--retain-days", "3", "--", "cat"));
        assertEquals("--log-level must be one of trace, debug, info, warn, error, off; not 'loud'",
                error("--log-level", "loud", "--", "cat"));
        assertEquals("--help takes no value", error("--help=yes"));
    }

    @Test
    void upstreamTakesAUrlAndAnyNumberOfHeaders() {
        ProxyOptions o = ok("--record", "d", "--upstream", "https://example.com/mcp?region=eu",
                "--upstream-header", "Authorization=ORDERS_AUTH", "--upstream-header=X-Team=team_1");
        assertEquals(new ServerChoice.Url(URI.create("https://example.com/mcp?region=eu"),
                List.of(new ServerChoice.HeaderRef("Authorization", "ORDERS_AUTH"),
                        new ServerChoice.HeaderRef("X-Team", "team_1"))), o.server());
        assertEquals(new ServerChoice.Url(URI.create("http://127.0.0.1:3001/mcp"), List.of()),
                ok("--upstream=http://127.0.0.1:3001/mcp").server());
    }

    @Test
    void theOAuthOptionsGoWithUpstreamAndTheirFilesAreReadWithoutShowingWhatTheyHold(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path secret = java.nio.file.Files.writeString(tmp.resolve("secret"), "cs-0123456789\n");
        ServerChoice server = ok("--upstream", "https://example.com/mcp", "--oauth-client-id", "cid",
                "--oauth-client-secret-file", secret.toString(), "--oauth-scope", "read, write", "--oauth-callback-port",
                "8123", "--oauth-browser", "firefox --new-tab", "--oauth-timeout", "30").server();
        UpstreamSpec.Http spec = assertInstanceOf(UpstreamSpec.Http.class, server.spec(Map.of()));
        assertEquals("cid", spec.oauth().clientId());
        assertEquals("cs-0123456789", spec.oauth().clientSecret());
        assertEquals(List.of("read", "write"), spec.oauth().scopes());
        assertEquals(8123, spec.oauth().callbackPort());
        assertEquals(java.time.Duration.ofSeconds(30), spec.oauth().loginTimeout());
        assertEquals("the command [firefox, --new-tab]", spec.oauth().browser().toString());
        assertTrue(spec.secretValues().contains("cs-0123456789"));
        assertFalse(spec.toString().contains("cs-0123456789"), spec.toString());

        ServerChoice.UsageError missing = assertThrows(ServerChoice.UsageError.class, () -> ok("--upstream",
                "https://example.com/mcp", "--oauth-client-id", "cid", "--oauth-client-secret-file",
                tmp.resolve("nope").toString()).server().spec(Map.of()));
        assertEquals("--oauth-client-secret-file " + tmp.resolve("nope") + ": no such file", missing.getMessage());
        java.nio.file.Path notKey = java.nio.file.Files.writeString(tmp.resolve("key.pem"), "sk-not-a-key-1234");
        ServerChoice.UsageError key = assertThrows(ServerChoice.UsageError.class, () -> ok("--upstream",
                "https://example.com/mcp", "--oauth-client-id", "cid", "--oauth-client-key-file", notKey.toString())
                .server().spec(Map.of()));
        assertFalse(key.getMessage().contains("sk-not-a-key"), key.getMessage());

        assertEquals("--oauth-scope is for an HTTP server that needs OAuth; give --upstream URL too",
                error("--oauth-scope", "a", "--", "srv"));
        assertEquals("--oauth-callback-port needs a port from 1 to 65535, not '70000'",
                error("--upstream", "https://e.example/mcp", "--oauth-callback-port", "70000"));
        assertEquals("give either --oauth-browser or --oauth-no-browser, not both",
                error("--upstream", "https://e.example/mcp", "--oauth-browser", "x", "--oauth-no-browser"));
        assertEquals("--oauth-client-credentials needs --oauth-client-id too",
                error("--upstream", "https://e.example/mcp", "--oauth-client-credentials"));
        assertEquals("--oauth-client-secret-file is the secret of a pre-registered client; give --oauth-client-id too",
                error("--upstream", "https://e.example/mcp", "--oauth-client-secret-file", "f"));
        assertEquals("--oauth-client-metadata-url needs the https URL (with a path) of the client's metadata document,"
                + " not 'http://e.example/c.json'", error("--upstream", "https://e.example/mcp",
                "--oauth-client-metadata-url", "http://e.example/c.json"));
        assertEquals("--oauth-timeout needs a whole number of seconds (1 or more), not '0'",
                error("--upstream", "https://e.example/mcp", "--oauth-timeout", "0"));
        assertEquals("--oauth-client-id is for signing in with OAuth, which the proxy does not do with an"
                + " Authorization header of --upstream-header's own; give one or the other",
                error("--upstream", "https://e.example/mcp", "--upstream-header", "authorization=TOKEN",
                        "--oauth-client-id", "cid"));
        assertEquals("--oauth-no-browser is for signing in with OAuth, which the proxy does not do with an"
                + " URL that holds user info (sent as Basic authorization); give one or the other",
                error("--upstream", "https://u:pw@e.example/mcp", "--oauth-no-browser"));
        UpstreamSpec.Http fromEnv = (UpstreamSpec.Http) ok("--upstream", "https://e.example/mcp").server()
                .spec(Map.of("STRETTO_OAUTH_BROWSER", "open -a Safari"));
        assertEquals("the command [open, -a, Safari]", fromEnv.oauth().browser().toString());
    }

    @Test
    void upstreamHeaderValuesComeFromTheEnvironment() throws Exception {
        ServerChoice server = ok("--upstream", "http://u:pw@127.0.0.1:9/mcp", "--upstream-header", "Authorization=TOK")
                .server();
        UpstreamSpec.Http spec = assertInstanceOf(UpstreamSpec.Http.class, server.spec(Map.of("TOK", "Bearer sk-1")));
        assertEquals(List.of(new HeaderSpec("Authorization", "Bearer sk-1")), spec.headers());
        assertEquals(List.of("http://127.0.0.1:9/mcp"), spec.loggedCommand());

        ServerChoice.UsageError unset = assertThrows(ServerChoice.UsageError.class, () -> server.spec(Map.of()));
        assertEquals("--upstream-header Authorization=TOK: the environment variable TOK is not set",
                unset.getMessage());
        ServerChoice.UsageError empty = assertThrows(ServerChoice.UsageError.class,
                () -> server.spec(Map.of("TOK", "")));
        assertEquals("--upstream-header Authorization=TOK: the environment variable TOK is empty", empty.getMessage());
        ServerChoice.UsageError broken = assertThrows(ServerChoice.UsageError.class,
                () -> server.spec(Map.of("TOK", "sk-1\r\nX-Evil: 1")));
        assertEquals("--upstream-header Authorization=TOK: the value of header Authorization contains a line break"
                + " or NUL, which cannot be sent", broken.getMessage());
    }

    @Test
    void upstreamUsageErrorsSayWhatIsWrongWithoutShowingSecrets() {
        assertEquals("give either --upstream URL or -- SERVER_COMMAND..., not both",
                error("--upstream", "http://127.0.0.1:9/mcp", "--", "cat"));
        assertEquals("--upstream-header is for an HTTP server; give --upstream URL too",
                error("--upstream-header", "Authorization=T", "--", "cat"));
        assertEquals("--upstream needs a value", error("--upstream"));
        assertEquals("--upstream is given more than once",
                error("--upstream", "http://a/mcp", "--upstream", "http://b/mcp"));
        assertEquals("--upstream: the upstream must be an http:// or https:// URL with a host, not ftp://example.com/mcp",
                error("--upstream", "ftp://user:pw-1@example.com/mcp"));
        assertEquals("--upstream: the upstream URL is not a valid URL", error("--upstream", "http://exa mple.com/ pw-1"));
        assertEquals("--upstream-header: needs NAME=VAR, a header name and the environment variable that holds its"
                + " value (e.g. Authorization=MY_TOKEN)", error("--upstream", "http://a/mcp", "--upstream-header", "sk-1"));
        assertEquals("--upstream-header Authorization=...: after '=' comes the name of the environment variable that"
                        + " holds the value (letters, digits and _), not the value itself",
                error("--upstream", "http://a/mcp", "--upstream-header", "Authorization=Bearer sk-1"));
        assertEquals("--upstream-header: needs NAME=VAR, a header name and the environment variable that holds its"
                + " value (e.g. Authorization=MY_TOKEN)", error("--upstream", "http://a/mcp", "--upstream-header", "=T"));
        assertEquals("--upstream-header Accept=T: header Accept is set by the proxy itself and cannot be set",
                error("--upstream", "http://a/mcp", "--upstream-header", "Accept=T"));
        assertEquals("--upstream-header X:Y=T: 'X:Y' is not a valid HTTP header name",
                error("--upstream", "http://a/mcp", "--upstream-header", "X:Y=T"));
        assertEquals("--upstream-header: header x-team is given more than once",
                error("--upstream", "http://a/mcp", "--upstream-header", "X-Team=A", "--upstream-header", "x-team=B"));
    }

    /** Issue 7: a URL without a scheme was shown as localhost:<redacted>, port 99999 accepted. */
    @Test
    void anUpstreamUrlWithoutSchemeOrWithABadPortIsAUsageErrorSayingSo() {
        assertEquals("--upstream: the upstream URL has no scheme (write http://localhost:8080/mcp or https://...)",
                error("--upstream", "localhost:8080/mcp"));
        assertEquals("--upstream: the upstream URL has no scheme (write http://h/mcp?token=<redacted> or https://...)",
                error("--upstream", "u:pw-1@h/mcp?token=tk-1"));
        assertEquals("--upstream: the upstream URL has no scheme (write http://127.0.0.1:3001/mcp or https://...)",
                error("--upstream", "127.0.0.1:3001/mcp"));
        assertEquals("--upstream: the upstream URL's port 99999 is out of range (1 to 65535)",
                error("--upstream", "https://h:99999/mcp"));
        assertEquals("--upstream: the upstream URL's port 0 is out of range (1 to 65535)",
                error("--upstream", "http://h:0/mcp"));
        assertEquals("--upstream: the upstream URL has no valid host and port: http://h:99999999999/mcp",
                error("--upstream", "http://h:99999999999/mcp"));
        assertEquals("--upstream: the upstream URL has no valid host and port: http://my_host/mcp",
                error("--upstream", "http://u:pw-1@my_host/mcp"));
        assertEquals(new ServerChoice.Url(java.net.URI.create("http://h:65535/mcp"), List.of()),
                ok("--upstream", "http://h:65535/mcp").server());
    }

    /** Issue 7: the token given where the variable's name belongs was printed on stderr. */
    @Test
    void aTokenGivenInPlaceOfTheVariablesNameIsNotRepeated() {
        String token = "ghp_abcdefghijklmnopqrstuvwxyz0123";
        ServerChoice server = ok("--upstream", "http://a/mcp", "--upstream-header", "Authorization=" + token).server();
        ServerChoice.UsageError unset = assertThrows(ServerChoice.UsageError.class, () -> server.spec(Map.of()));
        assertEquals("--upstream-header Authorization=...: no environment variable of that name is set; after '='"
                + " comes the name of the variable that holds the value, not the value itself (the name is not"
                + " repeated: it looks like a secret)", unset.getMessage());
        ServerChoice lower = ok("--upstream", "http://a/mcp", "--upstream-header", "X-Key=a8f7d6e5c4b3a2918273").server();
        String message = assertThrows(ServerChoice.UsageError.class, () -> lower.spec(Map.of())).getMessage();
        assertFalse(message.contains("a8f7d6e5c4b3a2918273"), message);
        assertEquals("--upstream-header ...=T: not a valid HTTP header name",
                error("--upstream", "http://a/mcp", "--upstream-header", token + ":=T"));
    }

    @Test
    void aHeaderWrittenOutInFullIsNotEchoedEvenWhenItsValueHoldsAnEqualsSign() {
        // Base64 credentials end in '=', so "Name: value" still splits at an '=' inside the value.
        String basic = error("--upstream", "http://a/mcp", "--upstream-header", "Authorization: Basic dXNlcjpwYXNz=");
        assertEquals("--upstream-header: needs NAME=VAR, a header name and the environment variable that holds its"
                + " value (e.g. Authorization=MY_TOKEN); what was given is not repeated, it may hold a secret", basic);
        String bearer = error("--upstream", "http://a/mcp", "--upstream-header", "Authorization: Bearer sk-1=T");
        assertEquals("--upstream-header: needs NAME=VAR, a header name and the environment variable that holds its"
                + " value (e.g. Authorization=MY_TOKEN); what was given is not repeated, it may hold a secret", bearer);
        for (String message : List.of(basic, bearer)) {
            assertFalse(message.contains("dXNlcjpwYXNz") || message.contains("sk-1"), message);
        }
    }

    @Test
    void shutdownGraceTakesWholeOrDecimalSeconds() {
        assertEquals(java.time.Duration.ofSeconds(30), ok("--shutdown-grace", "30", "--", "cat").shutdownGrace());
        assertEquals(java.time.Duration.ofMillis(500), ok("--shutdown-grace=0.5", "--", "cat").shutdownGrace());
        assertEquals(java.time.Duration.ZERO, ok("--shutdown-grace=0", "--", "cat").shutdownGrace());
    }

    @Test
    void shutdownGraceRefusesWhatIsNotAFewSeconds() {
        for (String bad : List.of("soon", "-1", "1e3", "0.0001", "86401", "2s")) {
            assertEquals("--shutdown-grace needs a number of seconds from 0 to 86400 (e.g. 2 or 0.5), not '" + bad + "'",
                    error("--shutdown-grace=" + bad, "--", "cat"), bad);
        }
        assertEquals("--shutdown-grace is for a server started with --; an HTTP session ends with a DELETE",
                error("--shutdown-grace", "5", "--upstream", "http://127.0.0.1:9/mcp"));
    }

    @Test
    void activeModesSwitchesTakeNoValueAndTheContextFileIsAPath() {
        ProxyOptions o = ok("--guards", "--domain", "retail", "--commit", "--context=~/chat.jsonl", "--", "srv");
        assertEquals(new ProxyOptions.Active(true, true, Path.of("~/chat.jsonl")), o.active());
        assertEquals(new ProxyOptions.Active(false, false, Path.of("c.jsonl")), ok("--context", "c.jsonl", "--", "srv").active());
        assertEquals(new ProxyOptions.Active(false, true, null), ok("--commit", "--upstream", "http://h/mcp").active());
        assertEquals(null, ok("--domain", "retail", "--", "srv").active(), "no active option: passive mode");
        assertEquals("--commit takes no value", error("--commit=yes", "--", "srv"));
        assertEquals("--guards is given more than once", error("--guards", "--guards", "--domain", "retail", "--", "srv"));
        assertEquals("--context needs a value", error("--context", "--", "srv"));
    }

    @Test
    void guardsNeedADomainThatHasGuardsWithTheReferencesMessages() {
        assertEquals("--guards needs --domain (retail or airline)", error("--guards", "--", "srv"));
        assertEquals("no guards for shop", error("--guards", "--domain", "shop", "--", "srv"));
        assertEquals(new ProxyOptions.Active(true, false, null), ok("--domain=airline", "--guards", "--", "srv").active());
    }

    private static final List<String> JUDGED = List.of("--domain", "retail", "--guards", "--context", "chat.jsonl");

    private static String[] judged(String... more) {
        List<String> args = new java.util.ArrayList<>(JUDGED);
        args.addAll(List.of(more));
        args.addAll(List.of("--", "srv"));
        return args.toArray(String[]::new);
    }

    @Test
    void theConfirmationJudgeTakesItsModeAndOptionsWithTheReferencesDefaults() {
        JudgeSettings j = ok(judged("--confirm-judge", "log")).active().judge();
        assertEquals(JudgeSettings.of(JudgeSettings.Mode.LOG), j);
        assertEquals(0.5, j.threshold());
        assertEquals(100, j.questions());
        assertEquals(null, j.log());
        j = ok(judged("--confirm-judge=enforce", "--confirm-threshold", "0.7", "--confirm-second", "proposed",
                "--confirm-second-shadow", "--confirm-questions", "12", "--confirm-log", "~/judged.jsonl")).active().judge();
        assertEquals(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withThreshold(0.7)
                .withSecond(JudgeSettings.Second.PROPOSED, true).withQuestions(12).withLog(Path.of("~/judged.jsonl")), j);
        assertEquals(JudgeSettings.Second.DESCRIBED,
                ok(judged("--confirm-judge", "log", "--confirm-second", "described")).active().judge().second());
        assertEquals(null, ok(judged()).active().judge(), "no judge unless asked for");
    }

    @Test
    void theConfirmationJudgeNeedsTheGuardsAndTheConversationAndSaysSo() {
        assertEquals("--confirm-judge needs --guards: it judges the writes the guards check for the customer's"
                + " confirmation", error("--domain", "retail", "--context", "c.jsonl", "--confirm-judge", "log", "--", "srv"));
        assertEquals("--confirm-judge needs --context FILE: it judges the customer's reply, which only the conversation"
                + " holds", error("--domain", "retail", "--guards", "--confirm-judge", "enforce", "--", "srv"));
        assertEquals("--guards needs --domain (retail or airline)", error("--guards", "--context", "c", "--confirm-judge",
                "log", "--", "srv"));
    }

    @Test
    void theConfirmationJudgesBadValuesAreUsageErrorsNamingTheOption() {
        assertEquals("--confirm-judge takes log or enforce, not 'strict'", error(judged("--confirm-judge", "strict")));
        assertEquals("--confirm-threshold needs a probability from 0 to 1 (e.g. 0.5), not '1.5'",
                error(judged("--confirm-judge", "log", "--confirm-threshold", "1.5")));
        assertEquals("--confirm-threshold needs a probability from 0 to 1 (e.g. 0.5), not 'NaN'",
                error(judged("--confirm-judge", "log", "--confirm-threshold", "NaN")));
        assertEquals("--confirm-second takes proposed or described, not 'both'",
                error(judged("--confirm-judge", "log", "--confirm-second", "both")));
        assertEquals("--confirm-second-shadow makes the second question a shadow; give --confirm-second"
                + " proposed|described too", error(judged("--confirm-judge", "log", "--confirm-second-shadow")));
        assertEquals("--confirm-questions needs a whole number of questions (0 or more), not '-1'",
                error(judged("--confirm-judge", "log", "--confirm-questions=-1")));
        assertEquals("--confirm-second-shadow takes no value", error(judged("--confirm-judge", "log",
                "--confirm-second-shadow=yes")));
    }

    @Test
    void theJudgesOptionsWithoutTheJudgeAreUsageErrors() {
        for (String[] option : List.of(new String[] {"--confirm-threshold", "0.3"}, new String[] {"--confirm-second",
                "proposed"}, new String[] {"--confirm-second-shadow"}, new String[] {"--confirm-questions", "5"},
                new String[] {"--confirm-log", "j.jsonl"})) {
            assertEquals(option[0] + " is an option of the confirmation judge; give --confirm-judge log|enforce too",
                    error(judged(option)));
        }
    }

    @Test
    void theJudgeAndAFlowShareTheOracleOptions() {
        ProxyOptions.Active a = ok(judged("--confirm-judge", "log", "--oracle", "replay", "--oracle-cache", "~/c"))
                .active();
        assertEquals(new ProxyOptions.OracleChoice(OracleMode.REPLAY, Path.of("~/c")), a.oracle());
        assertEquals(ProxyOptions.OracleChoice.DEFAULT, ok(judged("--confirm-judge", "log")).active().oracle());
        a = ok(judged("--confirm-judge", "enforce", "--flow", "f", "--oracle", "mock")).active();
        assertEquals(new ProxyOptions.OracleChoice(OracleMode.MOCK, null), a.oracle());
        assertEquals(Path.of("f"), a.flow().file());
        assertEquals("--oracle takes jev, replay or mock, not 'gpt'", error(judged("--confirm-judge", "log", "--oracle",
                "gpt")));
    }

    @Test
    void aFlowTurnsActiveModeOnWithTheDefaultsOfTheReference() {
        ProxyOptions o = ok("--flow", "shop.flow.json", "--", "srv");
        ProxyOptions.FlowChoice f = o.active().flow();
        assertEquals(new ProxyOptions.FlowChoice(Path.of("shop.flow.json"), 0.3, null, 8, 40, 300, null, false, null, 0,
                null, null), f);
        assertEquals(new ProxyOptions.Active(false, false, null, f, null, ProxyOptions.OracleChoice.DEFAULT), o.active());
    }

    @Test
    void everyFlowOptionTakesItsValue() {
        ProxyOptions.Active a = ok("--flow=~/shop.flow.json", "--flow-threshold", "0.5", "--flow-decider=habit",
                "--flow-per-call", "3", "--flow-per-session", "9", "--flow-questions", "0", "--flow-tools",
                "get_user_details,get_order_details", "--flow-tools", "find_user_id_by_email", "--flow-shadow",
                "--flow-explore", "0.1", "--flow-explore-seed", "18446744073709551615", "--flow-log", "~/f.jsonl",
                "--task-id", "task-7", "--oracle", "mock", "--oracle-cache", "~/cache", "--", "srv").active();
        ProxyOptions.FlowChoice f = a.flow();
        assertEquals(new ProxyOptions.FlowChoice(Path.of("~/shop.flow.json"), 0.5, DeciderKind.HABIT, 3, 9, 0,
                Set.of("get_user_details", "get_order_details", "find_user_id_by_email"), true, 0.1, -1L, "task-7",
                Path.of("~/f.jsonl")), f);
        assertEquals(new ProxyOptions.OracleChoice(OracleMode.MOCK, Path.of("~/cache")), a.oracle());
        assertEquals(0L, ok("--flow", "f", "--flow-explore", "1", "--", "srv").active().flow().seed());
    }

    @Test
    void flowOptionsSayWhatIsWrongWithTheirValue() {
        assertEquals("--flow-threshold takes a number from 0 to 1, not '1.5'",
                error("--flow", "f", "--flow-threshold", "1.5", "--", "srv"));
        assertEquals("--flow-threshold takes a number from 0 to 1, not '-1'",
                error("--flow", "f", "--flow-threshold", "-1", "--", "srv"));
        assertEquals("--flow-threshold takes a number from 0 to 1, not 'NaN'",
                error("--flow", "f", "--flow-threshold=NaN", "--", "srv"));
        assertEquals("--flow-decider takes arbiter, habit or reach, not 'best'",
                error("--flow", "f", "--flow-decider", "best", "--", "srv"));
        assertEquals("--flow-per-call takes a whole number, 0 or more, not '-2'",
                error("--flow", "f", "--flow-per-call", "-2", "--", "srv"));
        assertEquals("--flow-questions takes a whole number, 0 or more, not 'many'",
                error("--flow", "f", "--flow-questions", "many", "--", "srv"));
        assertEquals("--flow-explore takes a number from 0 to 1, not '2'",
                error("--flow", "f", "--flow-explore", "2", "--", "srv"));
        assertEquals("--flow-explore-seed takes a whole number from 0 to 18446744073709551615, not '18446744073709551616'",
                error("--flow", "f", "--flow-explore", "0.1", "--flow-explore-seed", "18446744073709551616", "--", "srv"));
        assertEquals("--flow-explore-seed seeds the draws of --flow-explore; give --flow-explore EPSILON too",
                error("--flow", "f", "--flow-explore-seed", "3", "--", "srv"));
        assertEquals("--flow-tools takes tool names separated by commas (e.g. get_order_details,get_user_details),"
                + " not 'a,,b'", error("--flow", "f", "--flow-tools", "a,,b", "--", "srv"));
        assertEquals("--oracle takes jev, replay or mock, not 'gpt'", error("--flow", "f", "--oracle", "gpt", "--", "srv"));
        assertEquals("--flow is given more than once", error("--flow", "f", "--flow", "g", "--", "srv"));
        assertEquals("--flow-shadow takes no value", error("--flow", "f", "--flow-shadow=yes", "--", "srv"));
    }

    @Test
    void flowOptionsWithoutAFlowAreAUsageError() {
        for (String[] args : List.of(new String[] {"--flow-threshold", "0.5"}, new String[] {"--flow-decider", "habit"},
                new String[] {"--task-id", "t"}, new String[] {"--flow-log", "f.jsonl"},
                new String[] {"--flow-explore", "0.1"})) {
            assertEquals(args[0] + " is for a served flow; give --flow FILE too",
                    error(args[0], args[1], "--guards", "--domain", "retail", "--", "srv"));
        }
        for (String[] args : List.of(new String[] {"--oracle", "mock"}, new String[] {"--oracle-cache", "c"})) {
            assertEquals(args[0] + " is for a served flow or the confirmation judge; give --flow FILE or"
                    + " --confirm-judge too", error(args[0], args[1], "--guards", "--domain", "retail", "--", "srv"));
        }
        assertEquals("--flow-tools is for a served flow; give --flow FILE too", error("--flow-tools", "a", "--", "srv"));
        assertEquals("--flow-shadow is for a served flow; give --flow FILE too", error("--flow-shadow", "--", "srv"));
    }
}
