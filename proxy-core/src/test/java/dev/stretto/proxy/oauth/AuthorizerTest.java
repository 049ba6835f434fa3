package dev.stretto.proxy.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.OAuthLogins;
import dev.stretto.proxy.OAuthSettings;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import dev.stretto.proxy.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sign-in of one upstream against a real authorization server on 127.0.0.1 ({@link TestAuthServer}). */
class AuthorizerTest {

    private static final List<String> CHALLENGE = List.of("Bearer error=\"invalid_token\"");

    /** A clock the test moves. */
    static final class TestClock implements InstantSource {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T12:00:00Z"));

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    private static Authorizer authorizer(TestAuthServer server, TokenStore store, FollowingBrowser browser,
                                         InstantSource clock, List<String> secrets) {
        OAuthSettings settings = OAuthSettings.DEFAULT.withBrowser(browser).withLoginTimeout(Duration.ofSeconds(20));
        return new Authorizer(server.mcp(), server.mcp().toString(), settings, store, HttpClient.newHttpClient(),
                Duration.ofSeconds(10), clock, secrets::add);
    }

    @Test
    void aFirstRefusalSignsInWithPkceAndTheResourceAndKeepsTheLoginForItsOwnerOnly(@TempDir Path tmp)
            throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            Path dir = tmp.resolve("auth");
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            List<String> secrets = new CopyOnWriteArrayList<>();
            Authorizer a = authorizer(server, OAuthLogins.directoryStore(dir), browser, InstantSource.system(), secrets);
            assertEquals(null, a.authorization(), "nothing kept yet: the first request goes without");
            assertTrue(a.refused(401, CHALLENGE, null, true));
            String header = a.authorization();
            assertTrue(server.valid(header), header);
            assertEquals(1, browser.opened.get());
            assertEquals(List.of(200), browser.statuses, "the callback page said the sign-in worked");
            assertEquals(0, server.pkceFailures.get());
            assertEquals(List.of(server.mcp().toString()), server.tokenResources, "RFC 8707 resource");
            assertEquals(server.mcp().toString(), server.authorizationQueries.getFirst().get("resource"));
            assertEquals("S256", server.authorizationQueries.getFirst().get("code_challenge_method"));
            assertTrue(secrets.contains(header.substring(7)), "the token went to the scrubbers");

            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            List<Path> files;
            try (var s = Files.list(dir)) {
                files = s.filter(f -> f.toString().endsWith(".json")).toList();
            }
            assertEquals(1, files.size(), files.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files.getFirst())));
            StoredLogin kept = OAuthLogins.directoryStore(dir).load(server.mcp()).orElseThrow();
            assertEquals(header.substring(7), kept.tokens().accessToken());
            assertEquals(server.base(), kept.issuer());
            assertTrue(kept.toString().contains("<redacted>") && !kept.toString().contains(header.substring(7)));

            // A second proxy for the same server finds the login: no browser, no new tokens.
            FollowingBrowser second = new FollowingBrowser(FollowingBrowser.Mode.NOTHING);
            Authorizer b = authorizer(server, OAuthLogins.directoryStore(dir), second, InstantSource.system(), secrets);
            assertEquals(header, b.authorization());
            assertEquals(0, second.opened.get());
            assertEquals(1, server.codeExchanges.get());
        }
    }

    @Test
    void tokensAreRefreshedBeforeTheyExpire(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start().expiresIn(60)) {
            TestClock clock = new TestClock();
            Authorizer a = authorizer(server, OAuthLogins.directoryStore(tmp), new FollowingBrowser(
                    FollowingBrowser.Mode.FOLLOW), clock, new ArrayList<>());
            assertTrue(a.refused(401, CHALLENGE, null, true));
            String first = a.authorization();
            clock.advance(Duration.ofSeconds(20));
            assertEquals(first, a.authorization(), "40 s left of 60: not yet");
            assertEquals(0, server.refreshes.get());
            clock.advance(Duration.ofSeconds(15));
            String second = a.authorization();
            assertNotEquals(first, second, "25 s left: refreshed before the request");
            assertEquals(1, server.refreshes.get());
            assertTrue(server.valid(second));
            assertEquals(second.substring(7), OAuthLogins.directoryStore(tmp).load(server.mcp()).orElseThrow().tokens()
                    .accessToken(), "the refreshed tokens are kept");
        }
    }

    @Test
    void aRevokedRefreshTokenMeansANewSignIn(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            Authorizer a = authorizer(server, OAuthLogins.directoryStore(tmp), browser, InstantSource.system(),
                    new ArrayList<>());
            assertTrue(a.refused(401, CHALLENGE, null, true));
            String first = a.authorization();
            server.revokeAll();
            assertTrue(a.refused(401, CHALLENGE, first, true));
            String second = a.authorization();
            assertTrue(server.valid(second));
            assertEquals(1, server.refreshes.get(), "the refresh was tried first");
            assertEquals(2, browser.opened.get(), "then the person signed in again");
            assertEquals(2, server.codeExchanges.get());
        }
    }

    @Test
    void aStepUpThatTheServerNeverAcceptsEndsAfterOneMoreSignIn(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            Authorizer a = authorizer(server, OAuthLogins.directoryStore(tmp), browser, InstantSource.system(),
                    new ArrayList<>());
            assertTrue(a.refused(401, CHALLENGE, null, true));
            List<String> forMcp = List.of("Bearer error=\"insufficient_scope\", scope=\"mcp\"");
            assertTrue(a.wants(403, forMcp));
            assertTrue(a.refused(403, forMcp, a.authorization(), true), "one more sign-in");
            AuthorizationFailedException e = assertThrows(AuthorizationFailedException.class,
                    () -> a.refused(403, forMcp, a.authorization(), true));
            assertTrue(e.getMessage().contains("after signing in again"), e.getMessage());
            assertEquals(2, browser.opened.get());
        }
    }

    /**
     * Two proxies for the same server, each with a store of its own on the same directory (as
     * two processes have), refused at the same moment: one refreshes, the other uses what it
     * got. The server rotates refresh tokens and revokes everything when one is used twice, so
     * a lost refresh would show as a reuse and a new sign-in.
     */
    @Test
    void twoProxiesSharingTheStoreRefreshOnceBetweenThem(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            Authorizer a = authorizer(server, OAuthLogins.directoryStore(tmp), browser, InstantSource.system(),
                    new ArrayList<>());
            Authorizer b = authorizer(server, OAuthLogins.directoryStore(tmp), browser, InstantSource.system(),
                    new ArrayList<>());
            assertTrue(a.refused(401, CHALLENGE, null, true));
            String old = a.authorization();
            assertEquals(old, b.authorization());
            for (int round = 0; round < 5; round++) {
                server.expireAccessTokens();
                String sent = a.authorization();
                assertEquals(sent, b.authorization());
                CountDownLatch go = new CountDownLatch(1);
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    List<Future<String>> both = new ArrayList<>();
                    for (Authorizer x : List.of(a, b)) {
                        both.add(pool.submit(() -> {
                            go.await();
                            assertTrue(x.refused(401, CHALLENGE, sent, true));
                            return x.authorization();
                        }));
                    }
                    go.countDown();
                    String ta = both.get(0).get(30, TimeUnit.SECONDS);
                    String tb = both.get(1).get(30, TimeUnit.SECONDS);
                    assertEquals(ta, tb, "both use the one refreshed token");
                    assertTrue(server.valid(ta));
                } finally {
                    pool.shutdownNow();
                }
            }
            assertEquals(5, server.refreshes.get(), "one refresh a round");
            assertEquals(0, server.reusedRefreshTokens.get(), "no refresh token was used twice");
            assertEquals(1, browser.opened.get(), "and nobody had to sign in again");
        }
    }

    /** The store's lock holds across processes: a child JVM holds it, and this one waits. */
    @Test
    void theStoresLockExcludesAnotherProcess(@TempDir Path tmp) throws Exception {
        URI server = URI.create("http://127.0.0.1:9/mcp");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-preview", "-cp", ChildJvm.classPath(), LockHolder.class.getName(), tmp.toString(),
                server.toString()).redirectErrorStream(true).start();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            BufferedReader childOut = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("locked", childOut.readLine());
            TokenStore store = OAuthLogins.directoryStore(tmp);
            Future<String> mine = pool.submit(() -> store.exclusive(server, () -> "mine"));
            assertThrows(TimeoutException.class, () -> mine.get(500, TimeUnit.MILLISECONDS),
                    "the lock is the child's");
            child.getOutputStream().close();
            assertEquals("mine", mine.get(20, TimeUnit.SECONDS), "once the child let go");
            assertTrue(child.waitFor(20, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
            child.destroyForcibly();
        }
    }

    /** The child of {@link #theStoresLockExcludesAnotherProcess}: holds the lock until its stdin closes. */
    public static final class LockHolder {
        public static void main(String[] args) throws Exception {
            OAuthLogins.directoryStore(Path.of(args[0])).exclusive(URI.create(args[1]), () -> {
                System.out.println("locked");
                System.out.flush();
                System.in.read();
                return null;
            });
        }
    }
}
