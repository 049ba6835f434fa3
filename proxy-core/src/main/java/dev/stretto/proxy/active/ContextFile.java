package dev.stretto.proxy.active;

import dev.stretto.proxy.io.Line;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import dev.stretto.proxy.logging.Logger;

/**
 * The conversation file of {@code --context FILE}: the host appends one JSON line per message,
 * {@code {"role": "user" | "assistant", "content": text}}, and the proxy reads what was added
 * whenever it must know what was said (before each of the agent's calls, in each policy check,
 * and once more when the host's input ends). It remembers how far it read and takes only
 * complete lines: a line still being written is read once its {@code '\n'} is there.
 *
 * <p>A missing file is a conversation with nothing said yet. A file that becomes shorter than
 * what was read (truncated), or is another file now (replaced: its inode changed), is taken
 * for a new conversation and read from its start, with a warning. Blank lines are skipped.
 *
 * <p>Reading a regular file's new bytes is the one I/O the actor does itself: it waits for no
 * peer, and the conversation must be read at the moment of the call, not on a timer. Anything
 * that is not a regular file is refused with a warning. Actor thread only.
 */
final class ContextFile {
    private final Path path;
    // Actor thread only.
    private long offset;
    private Object fileKey;
    private boolean warnedUnreadable;

    ContextFile(Path path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    /** The complete, non-blank lines added since the last read; empty when there are none. */
    List<Line> readNew() {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            unreadable(e.toString());
            return List.of();
        }
        if (!attrs.isRegularFile()) {
            unreadable("it is not a regular file");
            return List.of();
        }
        Object key = attrs.fileKey();
        if (fileKey != null && key != null && !key.equals(fileKey)) {
            Logger.warn("the context file {} was replaced; reading the new one from its start", path);
            offset = 0;
        } else if (attrs.size() < offset) {
            Logger.warn("the context file {} was truncated; reading it again from its start", path);
            offset = 0;
        }
        fileKey = key;
        if (attrs.size() == offset) {
            return List.of();
        }
        byte[] added;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            added = read(ch, offset, attrs.size() - offset);
        } catch (IOException e) {
            unreadable(e.toString());
            return List.of();
        }
        int end = lastNewline(added);
        if (end < 0) {
            return List.of();
        }
        offset += end + 1;
        warnedUnreadable = false;
        return lines(added, end);
    }

    private static byte[] read(FileChannel ch, long from, long count) throws IOException {
        if (count > Integer.MAX_VALUE - 16) {
            throw new IOException("more than 2 GB were added at once");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) count);
        long pos = from;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                break;
            }
            pos += n;
        }
        return buf.position() == buf.capacity() ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
    }

    private static int lastNewline(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The lines of {@code bytes[0..end)}, each without its {@code '\n'}, blank ones left out. */
    private static List<Line> lines(byte[] bytes, int end) {
        List<Line> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= end; i++) {
            if (bytes[i] == '\n') {
                byte[] line = Arrays.copyOfRange(bytes, start, i);
                if (!isBlank(line)) {
                    out.add(new Line(line, true));
                }
                start = i + 1;
            }
        }
        return out;
    }

    private static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\f') {
                return false;
            }
        }
        return true;
    }

    private void unreadable(String why) {
        if (!warnedUnreadable) {
            warnedUnreadable = true;
            Logger.warn("cannot read the context file {} ({}); the conversation is missing until it can be read", path,
                    why);
        }
    }
}
