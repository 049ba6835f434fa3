package dev.stretto.cli.console.source;

/**
 * What the console knows of a file without reading it: enough to tell that it changed.
 *
 * @param size      its size in bytes, -1 when there is no such file
 * @param modifiedNs when it was last modified, in nanoseconds since the epoch
 */
public record FileState(long size, long modifiedNs) {

    /** No file. */
    public static final FileState NONE = new FileState(-1, 0);

    /**
     * The state of a file now, without following a link.
     *
     * @param file the file
     * @return its state, {@link #NONE} when there is no such file or it cannot be read
     */
    public static FileState of(java.nio.file.Path file) {
        try {
            var a = java.nio.file.Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? new FileState(a.size(), a.lastModifiedTime().to(
                    java.util.concurrent.TimeUnit.NANOSECONDS)) : NONE;
        } catch (java.io.IOException e) {
            return NONE;
        }
    }

    /** {@return whether there is a file} */
    public boolean exists() {
        return size >= 0;
    }
}
