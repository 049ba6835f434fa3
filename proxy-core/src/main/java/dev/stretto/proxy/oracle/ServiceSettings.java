package dev.stretto.proxy.oracle;

import dev.stretto.proxy.ApiKey;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How to reach the System-One service, as the caller found it (the CLI reads
 * {@code TYPESAFE_API_KEY} or {@code TYPESAFE_API_KEY_FILE}, {@code TYPESAFE_BASE_URL},
 * {@code TYPESAFE_DEFAULT_MODEL} and {@code SSL_CERT_FILE}; proxy-core never reads the
 * environment). {@link #toString()} never shows the key.
 *
 * @param apiKey         the key, or null when none is configured (the {@code mock} and
 *                       {@code replay} oracles need none; {@code jev} then fails each question)
 * @param baseUrl        the service's base URL, without a trailing {@code /}
 * @param model          the model id requests name
 * @param extraRootsFile a PEM file of certificates to trust besides the JDK's own roots, or null
 */
public record ServiceSettings(ApiKey apiKey, URI baseUrl, String model, Path extraRootsFile) {

    /** The service's base URL unless configured otherwise. */
    public static final String DEFAULT_BASE_URL = "https://api.typesafe.ai";

    /** The model id unless configured otherwise. */
    public static final String DEFAULT_MODEL = "jev-latest";

    /** The service's path under the base URL. */
    public static final String PATH = "/v1/systemone";

    /**
     * @throws NullPointerException     if the URL or model is null
     * @throws IllegalArgumentException if the model is blank, or the URL is not an absolute
     *                                  http(s) URL with a host
     */
    public ServiceSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("the model id is empty");
        }
        String scheme = baseUrl.getScheme();
        if (!baseUrl.isAbsolute() || baseUrl.isOpaque() || baseUrl.getHost() == null
                || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
            throw new IllegalArgumentException("the System-One base URL must be an http:// or https:// URL with a host");
        }
    }

    /** The defaults: no key, {@value #DEFAULT_BASE_URL}, {@value #DEFAULT_MODEL}, the JDK's roots. */
    public static ServiceSettings defaults() {
        return new ServiceSettings(null, URI.create(DEFAULT_BASE_URL), DEFAULT_MODEL, null);
    }

    /**
     * Parses a base URL as given by a user: white space around it and trailing {@code /}s are
     * dropped.
     *
     * @throws IllegalArgumentException if it is not a valid URL
     */
    public static URI parseBaseUrl(String text) {
        String trimmed = text.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        try {
            return new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the System-One base URL is not a valid URL");
        }
    }

    /** The same settings with another key (null for none). */
    public ServiceSettings withApiKey(ApiKey key) {
        return new ServiceSettings(key, baseUrl, model, extraRootsFile);
    }

    /** Where requests are POSTed: the base URL, its trailing {@code /}s trimmed, then {@value #PATH}. */
    public URI endpoint() {
        String base = baseUrl.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + PATH);
    }
}
