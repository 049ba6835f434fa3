package dev.stretto.proxy.oracle;

import java.util.Objects;

/**
 * The TypeSafe API key. It is sent in the {@code Authorization} header and nowhere else:
 * {@link #toString()} never shows it, so neither does a record or message that holds one.
 */
public final class ApiKey {

    private final String value;

    private ApiKey(String value) {
        this.value = value;
    }

    /**
     * The key as given, with surrounding white space (a key file's last newline) removed.
     *
     * @throws IllegalArgumentException if it is empty, or holds a control character (it could
     *                                  not be sent in a header); the message does not show it
     */
    public static ApiKey of(String value) {
        String key = Objects.requireNonNull(value, "value").strip();
        if (key.isEmpty()) {
            throw new IllegalArgumentException("the API key is empty");
        }
        if (key.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("the API key holds a control character (a line break?)");
        }
        return new ApiKey(key);
    }

    /** The key itself, for the header; package-private so that it cannot leak elsewhere. */
    String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApiKey other && other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "ApiKey[<redacted>]";
    }
}
