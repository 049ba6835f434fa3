package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.StderrMessages;
import dev.stretto.trace.json.CanonicalJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP client against a fake service on 127.0.0.1, with the waits between retries recorded, not slept. */
class SystemOneClientTest {

    private static final String SECRET = "ts-live-0123456789abcdef";
    private static final List<Duration> ALL_WAITS = SystemOneClient.BACKOFF;

    private FakeSystemOne service;
    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        service = new FakeSystemOne();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private SystemOneClient client(URI base, Duration timeout) {
        ServiceSettings settings = new ServiceSettings(ApiKey.of(SECRET), base, "jev-latest", null);
        return new SystemOneClient(settings, timeout, waits::add);
    }

    private SystemOneClient client() {
        return client(service.baseUrl(), Duration.ofSeconds(10));
    }

    static Request request() {
        return Request.of("jev-latest", CanonicalJson.parse("{\"customer_replied\":\"Yes, cancel it.\"}"), "confirmed",
                new Question.Noul("Did they agree?", new Question.NoulCriteria("Yes.", "No.")));
    }

    @Test
    void theRequestIsPostedAsJsonWithTheKeyAsBearerToken() throws Exception {
        try (SystemOneClient c = client()) {
            Response r = c.ask(request());
            assertEquals(new Answer.Noul(0.5), r.answers().get("confirmed"));
            assertEquals(new TokenUsage(120, 1), r.usage());
        }
        FakeSystemOne.Seen seen = service.seen.getFirst();
        assertEquals("POST", seen.method());
        assertEquals("/v1/systemone", seen.path());
        assertEquals("Bearer " + SECRET, seen.header("Authorization"));
        assertEquals("application/json", seen.header("Content-Type"));
        assertEquals(request().toJson(), seen.body());
        assertEquals(List.of(), waits);
    }

    @Test
    void trailingSlashesOfTheBaseUrlAreTrimmed() throws Exception {
        URI base = ServiceSettings.parseBaseUrl(service.baseUrl() + "//");
        try (SystemOneClient c = client(base, Duration.ofSeconds(10))) {
            c.ask(request());
        }
        assertEquals("/v1/systemone", service.seen.getFirst().path());
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {429, 500, 502, 503, 504, 529})
    void aBusyServiceIsAskedAgainAfter1_2_4And8Seconds(int status) throws Exception {
        service.then(FakeSystemOne.status(status, "busy"), FakeSystemOne.status(status, "busy"),
                FakeSystemOne.status(status, "busy"), FakeSystemOne.status(status, "busy"));
        try (SystemOneClient c = client()) {
            assertEquals(new Answer.Noul(0.5), c.ask(request()).answers().get("confirmed"));
        }
        assertEquals(5, service.seen.size());
        assertEquals(ALL_WAITS, waits);
    }

    @Test
    void aServiceThatStaysBusyFailsAfterFourRetriesWithItsStatusAndBody() throws Exception {
        for (int i = 0; i < 5; i++) {
            service.then(FakeSystemOne.status(503, "{\"error\":\"overloaded\"}\n"));
        }
        try (SystemOneClient c = client()) {
            OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
            assertEquals("TypeSafe returned 503: {\"error\":\"overloaded\"}", e.getMessage());
        }
        assertEquals(5, service.seen.size());
        assertEquals(ALL_WAITS, waits);
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {400, 401, 404, 422, 501})
    void otherStatusesFailAtOnce(int status) throws Exception {
        service.then(FakeSystemOne.status(status, "no good"));
        try (SystemOneClient c = client()) {
            OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
            assertEquals("TypeSafe returned " + status + ": no good", e.getMessage());
        }
        assertEquals(1, service.seen.size());
        assertEquals(List.of(), waits);
    }

    @Test
    void aDroppedConnectionIsTriedAgain() throws Exception {
        service.then(FakeSystemOne.drop(), FakeSystemOne.drop());
        try (SystemOneClient c = client()) {
            assertEquals(new Answer.Noul(0.5), c.ask(request()).answers().get("confirmed"));
        }
        assertEquals(3, service.seen.size());
        assertEquals(ALL_WAITS.subList(0, 2), waits);
    }

    @Test
    void anAnswerThatTakesTooLongIsTriedAgain() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        service.then((exchange, seen) -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new java.io.IOException("given up by the test");
        });
        try (SystemOneClient c = client(service.baseUrl(), Duration.ofMillis(300))) {
            assertEquals(new Answer.Noul(0.5), c.ask(request()).answers().get("confirmed"));
        } finally {
            release.countDown();
        }
        assertEquals(2, service.seen.size());
        assertEquals(ALL_WAITS.subList(0, 1), waits);
    }

    @Test
    void aServiceThatCannotBeReachedFailsAfterFourRetries() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + port);
        try (SystemOneClient c = client(base, Duration.ofSeconds(5))) {
            OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
            assertEquals("TypeSafe cannot be reached at http://127.0.0.1:" + port + "/v1/systemone: connection refused"
                    + " (tried 5 times)", e.getMessage());
        }
        assertEquals(ALL_WAITS, waits);
    }

    @Test
    void anAnswerThatIsNotAResponseFailsAtOnce() throws Exception {
        service.then(FakeSystemOne.json("{\"model\":\"jev\",\"answers\":{\"confirmed\":{\"type\":\"noul\"}}}"));
        try (SystemOneClient c = client()) {
            OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
            assertEquals("TypeSafe's answer cannot be read: the answer to \"confirmed\" has no number \"noul\"",
                    e.getMessage());
        }
        assertEquals(1, service.seen.size());
    }

    @Test
    void withoutAKeyNothingIsSent() {
        ServiceSettings settings = new ServiceSettings(null, service.baseUrl(), "jev-latest", null);
        try (SystemOneClient c = new SystemOneClient(settings, Duration.ofSeconds(5), waits::add)) {
            OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
            assertEquals("no TypeSafe API key is set (TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE)", e.getMessage());
        }
        assertEquals(List.of(), service.seen);
    }

    @Test
    void theKeyIsNeverInALogLineAnExceptionMessageOrAToString() throws Exception {
        // A service that echoes what it was sent, key included, in its error bodies.
        FakeSystemOne.Reply echo503 = (exchange, seen) ->
                FakeSystemOne.send(exchange, 503, "overloaded; you sent " + seen.header("Authorization"));
        FakeSystemOne.Reply echo401 = (exchange, seen) ->
                FakeSystemOne.send(exchange, 401, "key " + SECRET + " is not valid");
        service.then(echo503, FakeSystemOne.drop(), echo401);
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        OracleException failure;
        SystemOneClient c = client();
        try (PrintStream capture = new PrintStream(stderr, true, StandardCharsets.UTF_8)) {
            System.setErr(capture);
            failure = assertThrows(OracleException.class, () -> c.ask(request()));
        } finally {
            StderrMessages.flush(Duration.ofSeconds(10));
            System.setErr(saved);
            c.close();
        }
        String logged = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(logged.contains("stretto-proxy: System-One: TypeSafe returned 503: overloaded; you sent Bearer <redacted>;"
                + " trying again in 1 s (1 of 4)"), logged);
        assertTrue(logged.contains("trying again in 2 s (2 of 4)"), logged);
        assertFalse(logged.contains(SECRET), logged);
        assertEquals("TypeSafe returned 401: key <redacted> is not valid", failure.getMessage());
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(SECRET), t.toString());
        }
        ServiceSettings settings = new ServiceSettings(ApiKey.of(SECRET), service.baseUrl(), "jev-latest", null);
        assertFalse(settings.toString().contains(SECRET), settings.toString());
        assertFalse(c.toString().contains(SECRET), c.toString());
    }

    @Test
    void extraRootsFromAPemFileAreTrustedBesidesTheJdksOwn(@TempDir Path tmp) throws Exception {
        TestCertificate cert = TestCertificate.create(tmp);
        try (FakeSystemOne https = new FakeSystemOne(cert.serverContext())) {
            ServiceSettings trusting = new ServiceSettings(ApiKey.of(SECRET), https.baseUrl(), "jev-latest", cert.pem());
            try (SystemOneClient c = new SystemOneClient(trusting, Duration.ofSeconds(10), waits::add)) {
                assertEquals(new Answer.Noul(0.5), c.ask(request()).answers().get("confirmed"));
            }
            ServiceSettings plain = new ServiceSettings(ApiKey.of(SECRET), https.baseUrl(), "jev-latest", null);
            try (SystemOneClient c = new SystemOneClient(plain, Duration.ofSeconds(10), waits::add)) {
                OracleException e = assertThrows(OracleException.class, () -> c.ask(request()));
                assertTrue(e.getMessage().startsWith("TypeSafe cannot be reached at " + https.baseUrl()
                        + "/v1/systemone: TLS failure: "), e.getMessage());
            }
            assertEquals(1, https.seen.size());
        }
        assertEquals(List.of(), waits, "a TLS failure is not tried again");
    }

    @Test
    void anExtraRootsFileThatHoldsNoCertificateIsRefusedAtOnce(@TempDir Path tmp) throws Exception {
        Path empty = java.nio.file.Files.writeString(tmp.resolve("empty.pem"), "");
        Path garbage = java.nio.file.Files.writeString(tmp.resolve("garbage.pem"), "-----BEGIN CERTIFICATE-----\nxx\n");
        Path missing = tmp.resolve("missing.pem");
        for (Path p : List.of(empty, garbage, missing)) {
            ServiceSettings s = new ServiceSettings(ApiKey.of(SECRET), service.baseUrl(), "jev-latest", p);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SystemOneClient(s));
            assertTrue(e.getMessage().startsWith("the certificate file " + p), e.getMessage());
        }
    }
}
