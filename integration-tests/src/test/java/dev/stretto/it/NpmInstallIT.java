package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/lib/npm-install, which bin/test runs, against a registry on 127.0.0.1: it installs a
 * pinned package set into .cache/ once, and when npm fails it says npm's own reason in one
 * line and where npm's full log is. The script runs from a copy of the checkout's layout in
 * a temporary directory, with an npm cache of its own, so nothing here touches the
 * checkout's .cache or the user's npm cache.
 */
class NpmInstallIT {

    private static final Pattern LOG = Pattern.compile("\\(npm's full log: (.+)\\)$");
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @TempDir
    Path tmp;

    private Path root;

    @BeforeEach
    void copyTheScript() throws Exception {
        root = tmp.resolve("checkout");
        Path script = root.resolve("bin/lib/npm-install");
        Files.createDirectories(script.getParent());
        Files.copy(Repo.root().resolve("bin/lib/npm-install"), script);
    }

    /** {@code server}, started, answering every request with {@code status} and {@code body}. */
    private static HttpServer answering(HttpServer server, int status, byte[] body) {
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private void packageSet(String name, String dependency, String lockEntry) throws Exception {
        Path dir = Files.createDirectories(root.resolve("integration-tests").resolve(name));
        Files.writeString(dir.resolve("package.json"), "{\"name\":\"t\",\"version\":\"1.0.0\",\"private\":true,"
                + "\"dependencies\":{\"" + dependency + "\":\"1.0.0\"}}\n");
        Files.writeString(dir.resolve("package-lock.json"), "{\"name\":\"t\",\"version\":\"1.0.0\",\"lockfileVersion\":3,"
                + "\"requires\":true,\"packages\":{\"\":{\"name\":\"t\",\"version\":\"1.0.0\",\"dependencies\":{\""
                + dependency + "\":\"1.0.0\"}},\"node_modules/" + dependency + "\":" + lockEntry + "}}\n");
    }

    private Proc install(String registry, String name) throws Exception {
        return Proc.start(List.of(root.resolve("bin/lib/npm-install").toString(), name), tmp, Map.of(
                "npm_config_registry", registry, "npm_config_cache", tmp.resolve("npm-cache").toString(),
                "npm_config_fetch_retries", "0", "npm_config_update_notifier", "false"));
    }

    /** The one line of failure: npm's reason, and its log, which must exist. */
    private String failure(Proc p, String name) throws Exception {
        assertEquals(1, p.waitFor(), p.stderr());
        List<String> lines = p.stderr().lines().toList();
        assertEquals(2, lines.size(), p.stderr());
        assertEquals("stretto: installing the npm packages of integration-tests/" + name + " into "
                + root.resolve(".cache").resolve(name), lines.get(0));
        Matcher log = LOG.matcher(lines.get(1));
        assertTrue(log.find(), lines.get(1));
        assertTrue(Files.isRegularFile(Path.of(log.group(1))), "npm's log exists: " + lines.get(1));
        assertTrue(Files.notExists(root.resolve(".cache").resolve(name)), "no half install is left");
        return lines.get(1);
    }

    @Test
    void aPackageTheRegistryDoesNotHaveIsNamedWithNpmsReason() throws Exception {
        HttpServer registry = answering(HttpServer.create(LOOPBACK, 0), 404, "{\"error\":\"Not found\"}".getBytes());
        try {
            String url = "http://127.0.0.1:" + registry.getAddress().getPort() + "/";
            packageSet("missing", "stretto-no-such-package", "{\"version\":\"1.0.0\"}");
            String line = failure(install(url, "missing"), "missing");
            assertTrue(line.startsWith("stretto: npm could not install integration-tests/missing: E404: 404 Not Found"
                    + " - GET " + url + "stretto-no-such-package"), line);
        } finally {
            registry.stop(0);
        }
    }

    @Test
    void aRegistryThatCannotBeReachedIsNamedWithNpmsReason() throws Exception {
        String url = "http://127.0.0.1:" + HttpServers.freePort() + "/";
        packageSet("offline", "stretto-tiny", "{\"version\":\"1.0.0\"}");
        String line = failure(install(url, "offline"), "offline");
        assertTrue(line.startsWith("stretto: npm could not install integration-tests/offline: ECONNREFUSED: "), line);
        assertTrue(line.contains("connect ECONNREFUSED 127.0.0.1:"), line);
    }

    @Test
    void aRegistryWhoseCertificateIsNotTrustedIsNamedWithNpmsReason() throws Exception {
        // A self-signed certificate made by the JDK's keytool, as behind a company proxy.
        Path keys = tmp.resolve("keys.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        try (Proc k = Proc.start(List.of(keytool, "-genkeypair", "-keystore", keys.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-alias", "registry", "-keyalg", "EC", "-dname", "CN=127.0.0.1",
                "-validity", "2"), tmp, Map.of())) {
            assertEquals(0, k.waitFor(), k.stderr());
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keys)) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(LOOPBACK, 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        HttpServer registry = answering(https, 404, new byte[0]);
        try {
            String url = "https://127.0.0.1:" + registry.getAddress().getPort() + "/";
            packageSet("untrusted", "stretto-tiny", "{\"version\":\"1.0.0\"}");
            String line = failure(install(url, "untrusted"), "untrusted");
            assertTrue(line.startsWith("stretto: npm could not install integration-tests/untrusted: "
                    + "DEPTH_ZERO_SELF_SIGNED_CERT: "), line);
            assertTrue(line.contains("self-signed certificate"), line);
        } finally {
            registry.stop(0);
        }
    }

    @Test
    void aPinnedPackageSetIsInstalledOnceIntoTheCache() throws Exception {
        // A real package, packed by npm itself and served with the integrity the lock pins.
        Path pkg = Files.createDirectories(tmp.resolve("tiny"));
        Files.writeString(pkg.resolve("package.json"), "{\"name\":\"stretto-tiny\",\"version\":\"1.0.0\",\"main\":\"index.js\"}\n");
        Files.writeString(pkg.resolve("index.js"), "module.exports = 'tiny';\n");
        try (Proc pack = Proc.start(List.of("npm", "pack", "--silent"), pkg, Map.of("npm_config_cache",
                tmp.resolve("npm-cache").toString()))) {
            assertEquals(0, pack.waitFor(), pack.stderr());
        }
        byte[] tarball = Files.readAllBytes(pkg.resolve("stretto-tiny-1.0.0.tgz"));
        String integrity = "sha512-" + Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-512").digest(tarball));
        HttpServer registry = answering(HttpServer.create(LOOPBACK, 0), 200, tarball);
        try {
            String url = "http://127.0.0.1:" + registry.getAddress().getPort() + "/";
            packageSet("tiny", "stretto-tiny", "{\"version\":\"1.0.0\",\"resolved\":\"" + url
                    + "stretto-tiny/-/stretto-tiny-1.0.0.tgz\",\"integrity\":\"" + integrity + "\"}");
            try (Proc p = install(url, "tiny")) {
                assertEquals(0, p.waitFor(), p.stderr());
                assertEquals("stretto: installing the npm packages of integration-tests/tiny into "
                        + root.resolve(".cache/tiny") + "\n", p.stderr());
            }
            assertEquals("module.exports = 'tiny';\n",
                    Files.readString(root.resolve(".cache/tiny/node_modules/stretto-tiny/index.js")));
        } finally {
            registry.stop(0);
        }
        // Installed already: nothing to say, and no registry needed.
        try (Proc again = install("http://127.0.0.1:" + HttpServers.freePort() + "/", "tiny")) {
            assertEquals(0, again.waitFor(), again.stderr());
            assertEquals("", again.stderr());
        }
    }
}
