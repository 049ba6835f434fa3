package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.ApiKey;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OracleSettingsTest {

    @Test
    void theDefaultsAreTheReferencesService() {
        ServiceSettings d = ServiceSettings.defaults();
        assertEquals(URI.create("https://api.typesafe.ai/v1/systemone"), d.endpoint());
        assertEquals("jev-latest", d.model());
        assertEquals(null, d.apiKey());
    }

    @Test
    void theEndpointIsTheBaseWithoutTrailingSlashesThenTheServicePath() {
        assertEquals(URI.create("http://127.0.0.1:9/prefix/v1/systemone"),
                new ServiceSettings(null, ServiceSettings.parseBaseUrl(" http://127.0.0.1:9/prefix/// "), "m", null).endpoint());
        assertEquals(URI.create("http://h/v1/systemone"),
                new ServiceSettings(null, URI.create("http://h/"), "m", null).endpoint());
    }

    @ParameterizedTest
    @ValueSource(strings = {"api.typesafe.ai", "ftp://api.typesafe.ai", "https:///v1", "mailto:a@b"})
    void aBaseUrlMustBeHttpOrHttpsWithAHost(String url) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ServiceSettings(null, ServiceSettings.parseBaseUrl(url), "m", null));
        assertEquals("the System-One base URL must be an http:// or https:// URL with a host", e.getMessage());
    }

    @Test
    void anApiKeyIsStrippedAndNeverShown() {
        ApiKey key = ApiKey.of("  sk-123\n");
        assertEquals("sk-123", key.reveal());
        assertEquals("ApiKey[<redacted>]", key.toString());
        assertEquals("ServiceSettings[apiKey=ApiKey[<redacted>], baseUrl=https://api.typesafe.ai, model=jev-latest,"
                + " extraRootsFile=null]", ServiceSettings.defaults().withApiKey(key).toString());
        assertEquals("the API key is empty", assertThrows(IllegalArgumentException.class, () -> ApiKey.of(" \n")).getMessage());
        assertEquals("the API key holds a control character (a line break?)",
                assertThrows(IllegalArgumentException.class, () -> ApiKey.of("a\nb")).getMessage());
    }
}
