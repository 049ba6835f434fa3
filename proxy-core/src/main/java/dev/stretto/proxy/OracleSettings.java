package dev.stretto.proxy;

import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.proxy.oracle.ServiceSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How to open the System-One {@link Oracle} ({@code --oracle}, {@code --oracle-cache} and what
 * {@code stretto-proxy} reads from {@code TYPESAFE_API_KEY}, {@code TYPESAFE_API_KEY_FILE},
 * {@code TYPESAFE_BASE_URL}, {@code TYPESAFE_DEFAULT_MODEL} and {@code SSL_CERT_FILE}). The
 * library reads no environment variable: a program gives each setting.
 *
 * <pre>{@code
 * try (Oracle oracle = OracleSettings.builder(OracleMode.JEV)
 *         .cache(Path.of("/var/cache/agent/oracle"))
 *         .apiKey(ApiKey.read(Path.of("/run/secrets/typesafe")))
 *         .build().open()) {
 *     // sessions, learning and promoting ask it
 * }
 * }</pre>
 *
 * {@link #toString()} never shows the key.
 */
public final class OracleSettings {

    /** The service's base URL unless one is given. */
    public static final String DEFAULT_BASE_URL = ServiceSettings.DEFAULT_BASE_URL;

    /** The model id unless one is given. */
    public static final String DEFAULT_MODEL = ServiceSettings.DEFAULT_MODEL;

    private final OracleMode mode;
    private final Path cache;
    private final ServiceSettings service;

    private OracleSettings(OracleMode mode, Path cache, ServiceSettings service) {
        this.mode = mode;
        this.cache = cache;
        this.service = service;
    }

    /**
     * A builder of settings for {@code mode}, with the default service and model and no key.
     *
     * @param mode who answers
     * @return the builder
     */
    public static Builder builder(OracleMode mode) {
        return new Builder(Objects.requireNonNull(mode, "mode"));
    }

    /**
     * The answer cache {@code stretto-proxy} uses unless {@code --oracle-cache} names another:
     * {@code ~/.stretto/oracle-cache}.
     *
     * @param home the home directory
     * @return the cache directory under it
     */
    public static Path defaultCache(Path home) {
        return OracleCache.defaultDirectory(home);
    }

    /**
     * Who answers.
     *
     * @return the mode
     */
    public OracleMode mode() {
        return mode;
    }

    /**
     * The answer cache ({@link OracleMode#JEV} and {@link OracleMode#REPLAY}).
     *
     * @return the cache directory, or null for {@link OracleMode#MOCK}, which uses none
     */
    public Path cache() {
        return cache;
    }

    /**
     * The key {@link OracleMode#JEV} asks with.
     *
     * @return the key, or null for none (then only cached answers can be had)
     */
    public ApiKey apiKey() {
        return service.apiKey();
    }

    /**
     * The service.
     *
     * @return its base URL, without a trailing {@code /}
     */
    public URI baseUrl() {
        return service.baseUrl();
    }

    /**
     * The model every question names.
     *
     * @return the model id
     */
    public String model() {
        return service.model();
    }

    /**
     * Certificates trusted besides the JDK's own roots, for the service.
     *
     * @return a PEM file, or null for the JDK's roots only
     */
    public Path extraRootsFile() {
        return service.extraRootsFile();
    }

    /**
     * Opens the oracle: for {@link OracleMode#JEV} its HTTP client, with the extra roots loaded
     * now rather than at the first question. The caller closes it.
     *
     * @return the oracle
     * @throws IllegalArgumentException when the extra roots file cannot be loaded
     */
    public Oracle open() {
        return OracleHandle.open(mode, cache, service);
    }

    @Override
    public String toString() {
        return "OracleSettings[mode=" + mode.wireName() + ", cache=" + cache + ", " + service + "]";
    }

    /** Builds {@link OracleSettings}. Not thread-safe. */
    public static final class Builder {
        private final OracleMode mode;
        private Path cache;
        private ApiKey apiKey;
        private URI baseUrl = URI.create(DEFAULT_BASE_URL);
        private String model = DEFAULT_MODEL;
        private Path extraRoots;

        private Builder(OracleMode mode) {
            this.mode = mode;
        }

        /**
         * The answer cache ({@code --oracle-cache DIR}); needed by {@link OracleMode#JEV} and
         * {@link OracleMode#REPLAY}. It is made when the first answer is kept.
         *
         * @param directory the cache directory
         * @return this builder
         */
        public Builder cache(Path directory) {
            this.cache = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * The key to ask the service with ({@code TYPESAFE_API_KEY}); only {@link OracleMode#JEV}
         * uses it.
         *
         * @param key the key, or null for none
         * @return this builder
         */
        public Builder apiKey(ApiKey key) {
            this.apiKey = key;
            return this;
        }

        /**
         * The service ({@code TYPESAFE_BASE_URL}, default {@value OracleSettings#DEFAULT_BASE_URL}):
         * white space around it and trailing {@code /}s are dropped.
         *
         * @param url an http:// or https:// URL with a host
         * @return this builder
         * @throws IllegalArgumentException when it is not such a URL
         */
        public Builder baseUrl(String url) {
            URI parsed = ServiceSettings.parseBaseUrl(Objects.requireNonNull(url, "url"));
            new ServiceSettings(null, parsed, model, null);
            this.baseUrl = parsed;
            return this;
        }

        /**
         * The model every question names ({@code TYPESAFE_DEFAULT_MODEL}, default {@value
         * OracleSettings#DEFAULT_MODEL}); white space around it is dropped.
         *
         * @param id the model id
         * @return this builder
         * @throws IllegalArgumentException when it is blank
         */
        public Builder model(String id) {
            String stripped = Objects.requireNonNull(id, "id").strip();
            if (stripped.isEmpty()) {
                throw new IllegalArgumentException("the model id is empty");
            }
            this.model = stripped;
            return this;
        }

        /**
         * Certificates to trust besides the JDK's own roots ({@code SSL_CERT_FILE}).
         *
         * @param pemFile a PEM file of certificates, or null for none
         * @return this builder
         */
        public Builder extraRoots(Path pemFile) {
            this.extraRoots = pemFile;
            return this;
        }

        /**
         * The settings.
         *
         * @return the settings
         * @throws IllegalArgumentException when {@link OracleMode#JEV} or {@link
         *                                  OracleMode#REPLAY} has no cache
         */
        public OracleSettings build() {
            if (mode != OracleMode.MOCK && cache == null) {
                throw new IllegalArgumentException("--oracle " + mode.wireName() + " answers from a cache: give its"
                        + " directory");
            }
            return new OracleSettings(mode, mode == OracleMode.MOCK ? null : cache,
                    new ServiceSettings(apiKey, baseUrl, model, extraRoots));
        }
    }
}
