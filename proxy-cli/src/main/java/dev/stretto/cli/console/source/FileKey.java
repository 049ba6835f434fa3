package dev.stretto.cli.console.source;

import java.util.Objects;

/**
 * How the console names a file in its URLs: the number of its {@link Root} and its path below
 * it. A key names a file the console found by walking its roots; nothing else can be asked for.
 *
 * @param root     the root's place in the console's list
 * @param relative the path below the root, {@code /}-separated
 */
public record FileKey(int root, String relative) implements Comparable<FileKey> {

    /** Checks the key. */
    public FileKey {
        Objects.requireNonNull(relative, "relative");
        if (root < 0) {
            throw new IllegalArgumentException("root must not be negative");
        }
    }

    /**
     * Parses {@link #toString()}'s form.
     *
     * @param text {@code <root>/<relative>}
     * @return the key, or null when {@code text} is not of that form
     */
    public static FileKey parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1 || slash > 4) {
            return null;
        }
        for (int i = 0; i < slash; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return null;
            }
        }
        return new FileKey(Integer.parseInt(text, 0, slash, 10), text.substring(slash + 1));
    }

    /** {@return the directory part of the relative path, {@code ""} for a file directly in the root} */
    public String directory() {
        int slash = relative.lastIndexOf('/');
        return slash < 0 ? "" : relative.substring(0, slash);
    }

    /** {@return the file's name} */
    public String name() {
        return relative.substring(relative.lastIndexOf('/') + 1);
    }

    @Override
    public int compareTo(FileKey o) {
        int c = Integer.compare(root, o.root);
        return c != 0 ? c : relative.compareTo(o.relative);
    }

    @Override
    public String toString() {
        return root + "/" + relative;
    }
}
