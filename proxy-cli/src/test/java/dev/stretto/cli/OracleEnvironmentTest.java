package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OracleEnvironmentTest {

    private static final String SECRET = "ts-live-secret-42";

    @TempDir
    Path dir;

    private static OracleSettings read(Map<String, String> env) {
        return read(env, OracleMode.JEV);
    }

    private static OracleSettings read(Map<String, String> env, OracleMode mode) {
        return OracleEnvironment.read(env, mode).cache(Path.of("cache")).build();
    }

    private static String error(Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> read(env)).getMessage();
    }

    private static void assertDefaults(OracleSettings s) {
        assertNull(s.apiKey());
        assertEquals(URI.create(OracleSettings.DEFAULT_BASE_URL), s.baseUrl());
        assertEquals(OracleSettings.DEFAULT_MODEL, s.model());
        assertNull(s.extraRootsFile());
    }

    @Test
    void anEmptyEnvironmentGivesTheDefaultsWithoutAKey() {
        assertDefaults(read(Map.of()));
        assertDefaults(read(Map.of("TYPESAFE_API_KEY", "", "TYPESAFE_BASE_URL", " ", "TYPESAFE_DEFAULT_MODEL", "",
                "SSL_CERT_FILE", "")));
        assertFalse(OracleEnvironment.keyGiven(Map.of("TYPESAFE_API_KEY", " ")));
    }

    @Test
    void everyVariableIsRead() {
        OracleSettings s = read(Map.of("TYPESAFE_API_KEY", SECRET, "TYPESAFE_BASE_URL",
                "http://127.0.0.1:8080/", "TYPESAFE_DEFAULT_MODEL", "jev-1.14.0", "SSL_CERT_FILE", "/etc/ssl/corp.pem"));
        assertEquals(ApiKey.of(SECRET), s.apiKey());
        assertEquals(URI.create("http://127.0.0.1:8080"), s.baseUrl());
        assertEquals("jev-1.14.0", s.model());
        assertEquals(Path.of("/etc/ssl/corp.pem"), s.extraRootsFile());
        assertEquals(OracleMode.JEV, s.mode());
        assertEquals(Path.of("cache"), s.cache());
        assertFalse(s.toString().contains(SECRET), s.toString());
    }

    @Test
    void theKeyFileIsReadWithoutItsLastNewline() throws Exception {
        Path file = Files.writeString(dir.resolve("key"), SECRET + "\n");
        assertEquals(ApiKey.of(SECRET), read(Map.of("TYPESAFE_API_KEY_FILE", file.toString())).apiKey());
    }

    @Test
    void theKeyVariableWinsOverTheKeyFile() {
        OracleSettings s = read(Map.of("TYPESAFE_API_KEY", SECRET,
                "TYPESAFE_API_KEY_FILE", dir.resolve("missing").toString()));
        assertEquals(ApiKey.of(SECRET), s.apiKey());
    }

    @Test
    void aKeyFileThatCannotBeUsedIsAClearError() throws Exception {
        Path missing = dir.resolve("missing");
        assertEquals("TYPESAFE_API_KEY_FILE names " + missing + ", which cannot be read: no such file or directory",
                error(Map.of("TYPESAFE_API_KEY_FILE", missing.toString())));
        assertEquals("TYPESAFE_API_KEY_FILE names " + dir + ", which is a directory",
                error(Map.of("TYPESAFE_API_KEY_FILE", dir.toString())));
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        assertEquals("TYPESAFE_API_KEY_FILE names " + empty + ", which is empty",
                error(Map.of("TYPESAFE_API_KEY_FILE", empty.toString())));
        Path underAFile = empty.resolve("key");
        assertEquals("TYPESAFE_API_KEY_FILE names " + underAFile + ", which cannot be read: Not a directory",
                error(Map.of("TYPESAFE_API_KEY_FILE", underAFile.toString())));
        Path binary = Files.write(dir.resolve("binary"), new byte[] {(byte) 0xff, (byte) 0xfe});
        assertEquals("TYPESAFE_API_KEY_FILE names " + binary + ", which is not UTF-8 text",
                error(Map.of("TYPESAFE_API_KEY_FILE", binary.toString())));
    }

    @Test
    void aKeyFileWithMoreThanTheKeyIsRefusedWithoutShowingIt() throws Exception {
        Path twoLines = Files.writeString(dir.resolve("two"), SECRET + "\nexport OTHER=1\n");
        String message = error(Map.of("TYPESAFE_API_KEY_FILE", twoLines.toString()));
        assertEquals("TYPESAFE_API_KEY_FILE names " + twoLines + ", whose content is not one key: the API key holds a"
                + " control character (a line break?)", message);
        assertFalse(message.contains(SECRET));
    }

    @Test
    void aBadBaseUrlNamesTheVariable() {
        assertEquals("TYPESAFE_BASE_URL: the System-One base URL must be an http:// or https:// URL with a host",
                error(Map.of("TYPESAFE_BASE_URL", "api.typesafe.ai")));
        assertEquals("TYPESAFE_BASE_URL: the System-One base URL is not a valid URL",
                error(Map.of("TYPESAFE_BASE_URL", "http://exa mple.com")));
    }

    @Test
    void withoutAKeyTheSettingsHaveNone() {
        assertNull(read(Map.of("TYPESAFE_DEFAULT_MODEL", "m")).apiKey());
    }

    @Test
    void onlyTheJevModeReadsTheKeySoABrokenKeyFileStopsNothingElse(@TempDir Path tmp) {
        Map<String, String> env = Map.of("TYPESAFE_API_KEY_FILE", tmp.resolve("missing").toString(),
                "TYPESAFE_DEFAULT_MODEL", "jev-2");
        OracleSettings replay = read(env, OracleMode.REPLAY);
        assertNull(replay.apiKey());
        assertEquals("jev-2", replay.model());
        assertNull(read(Map.of("TYPESAFE_API_KEY", SECRET), OracleMode.MOCK).apiKey());
        assertEquals(ApiKey.of(SECRET), read(Map.of("TYPESAFE_API_KEY", SECRET), OracleMode.JEV).apiKey());
        assertThrows(IllegalArgumentException.class, () -> read(env, OracleMode.JEV));
    }
}
