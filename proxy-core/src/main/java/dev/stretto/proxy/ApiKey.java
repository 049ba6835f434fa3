package dev.stretto.proxy;

import dev.stretto.proxy.io.IoMessages;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The TypeSafe API key, with which {@link OracleMode#JEV} asks the System-One service. It is
 * sent in the {@code Authorization} header and nowhere else: {@link #toString()} never shows
 * it, so neither does a record or message that holds one. The library never reads it from the
 * environment: the program gives it, as a value ({@link #of}) or as a file that holds it
 * ({@link #read}).
 */
public final class ApiKey {

    private final String value;

    private ApiKey(String value) {
        this.value = value;
    }

    /**
     * The key as given, with surrounding white space (a key file's last newline) removed.
     *
     * @param value the key
     * @return the key
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

    /**
     * The key a file holds: its UTF-8 text, surrounding white space (such as the last newline)
     * removed.
     *
     * @param file the file
     * @return the key
     * @throws UnusableFile when the file is a directory, cannot be read, is not UTF-8 text, is
     *                      empty or holds more than one key; the message never shows its content
     */
    public static ApiKey read(Path file) {
        if (Files.isDirectory(file)) {
            throw new UnusableFile(file, "which is a directory");
        }
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new UnusableFile(file, "which is not UTF-8 text");
        } catch (IOException e) {
            throw new UnusableFile(file, "which cannot be read: " + IoMessages.describe(e));
        }
        if (content.isBlank()) {
            throw new UnusableFile(file, "which is empty");
        }
        try {
            return of(content);
        } catch (IllegalArgumentException e) {
            // Never the content: the file may hold the key followed by something else.
            throw new UnusableFile(file, "whose content is not one key: " + e.getMessage());
        }
    }

    /**
     * A key file that holds no usable key. The message is {@code cannot use the API key file
     * <file>, <problem>}; a program that names the file otherwise (by the variable that gave
     * it, say) words its own message from {@link #file()} and {@link #problem()}.
     */
    public static final class UnusableFile extends IllegalArgumentException {
        /** The file, as given; not serialized (a {@code Path} is not serializable). */
        private final transient Path file;
        /** What is wrong with it. */
        private final String problem;

        private UnusableFile(Path file, String problem) {
            super("cannot use the API key file " + file + ", " + problem);
            this.file = file;
            this.problem = problem;
        }

        /**
         * The file.
         *
         * @return the file, as given
         */
        public Path file() {
            return file;
        }

        /**
         * What is wrong with it, as a clause that follows the file's name.
         *
         * @return such as {@code which is a directory} or {@code which cannot be read: permission
         *         denied}
         */
        public String problem() {
            return problem;
        }
    }

    /**
     * The key itself, for the {@code Authorization} header.
     *
     * @return the key
     */
    public String reveal() {
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

    /** {@return {@code ApiKey[<redacted>]}, never the key} */
    @Override
    public String toString() {
        return "ApiKey[<redacted>]";
    }
}
