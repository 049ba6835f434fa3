package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.OracleMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jev, replay and mock over a real cache directory and a fake service. */
class OracleModesTest {

    @TempDir
    Path dir;

    private FakeSystemOne service;
    private OracleCache cache;

    @BeforeEach
    void start() throws Exception {
        service = new FakeSystemOne();
        cache = new OracleCache(dir.resolve("cache"));
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private Oracle jev() {
        ServiceSettings settings = new ServiceSettings(ApiKey.of("k"), service.baseUrl(), "jev-latest", null);
        return new JevOracle(cache, new SystemOneClient(settings, Duration.ofSeconds(10), d -> { }));
    }

    private static Response stored(double p) {
        return Response.of("jev-1.13.0", Map.of("confirmed", new Answer.Noul(p)), new TokenUsage(5, 1));
    }

    @Test
    void replayAnswersFromTheCache() throws Exception {
        Request request = SystemOneClientTest.request();
        cache.put(request.key(), stored(0.93));
        try (Oracle replay = new ReplayOracle(cache)) {
            assertEquals(stored(0.93), replay.ask(request));
        }
    }

    @Test
    void aReplayMissIsAnErrorNamingTheKey() {
        Request request = SystemOneClientTest.request();
        OracleException e = assertThrows(OracleException.class, () -> new ReplayOracle(cache).ask(request));
        assertEquals("replay cache miss for request " + request.key(), e.getMessage());
    }

    @Test
    void jevAnswersACachedRequestWithoutAskingTheService() throws Exception {
        Request request = SystemOneClientTest.request();
        cache.put(request.key(), stored(0.93));
        try (Oracle jev = jev()) {
            assertEquals(stored(0.93), jev.ask(request));
        }
        assertEquals(List.of(), service.seen);
    }

    @Test
    void jevAsksTheServiceOnAMissAndCachesItsAnswer() throws Exception {
        Request request = SystemOneClientTest.request();
        Response answer;
        try (Oracle jev = jev()) {
            answer = jev.ask(request);
        }
        assertEquals(1, service.seen.size());
        assertEquals(Optional.of(answer), cache.find(request.key()));
        assertEquals(answer.toPrettyJson(), Files.readString(cache.fileOf(request.key())));
    }

    @Test
    void jevAsksAgainWhenTheCachedAnswerCannotBeReadAndReplacesIt() throws Exception {
        Request request = SystemOneClientTest.request();
        Files.createDirectories(cache.fileOf(request.key()).getParent());
        Files.writeString(cache.fileOf(request.key()), "{\"model\":");
        try (Oracle jev = jev()) {
            assertEquals(new Answer.Noul(0.5), jev.ask(request).answers().get("confirmed"));
        }
        assertEquals(1, service.seen.size());
        assertEquals(new Answer.Noul(0.5), cache.find(request.key()).orElseThrow().answers().get("confirmed"));
    }

    @Test
    void mockAnswersWithoutTheCacheOrTheService() throws Exception {
        try (Oracle mock = Oracle.of(OracleMode.MOCK, cache, ServiceSettings.defaults())) {
            Response r = mock.ask(SystemOneClientTest.request());
            assertEquals("mock", r.model());
            assertEquals(new Answer.Noul(0.5), r.answers().get("confirmed"));
        }
        assertFalse(Files.exists(cache.directory()));
        assertEquals(List.of(), service.seen);
    }

    @Test
    void eachModeMakesItsOracle() {
        assertInstanceOf(ReplayOracle.class, Oracle.of(OracleMode.REPLAY, cache, ServiceSettings.defaults()));
        assertInstanceOf(MockOracle.class, Oracle.of(OracleMode.MOCK, cache, ServiceSettings.defaults()));
        try (Oracle jev = Oracle.of(OracleMode.JEV, cache, ServiceSettings.defaults())) {
            assertInstanceOf(JevOracle.class, jev);
        }
    }
}
