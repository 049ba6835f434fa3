package dev.stretto.proxy.flow.file;

import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.model.Flow;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Reads and writes {@code *.flow.json} files, formats 1 and 2 exactly as the reference
 * implementation does, so flows move between the two: a file read and written back is the
 * same bytes. Format 3 is format 2 with {@code lookup_thresholds} (last), which only this
 * build serves ({@code stretto learn --per-lookup}).
 *
 * <p>Reading checks what a flow's load checks: the version field first (1 to 3 are read;
 * {@code flow format N is not supported (this build reads 1 to 3)}; no version is
 * {@code not a stretto flow: ...}), that a file marked 1 carries no field of format 2
 * ({@code thresholds}, {@code bindings.named_other}, {@code described_read},
 * {@code site_sources}, {@code lists}, {@code bare}, {@code constants}), the shape of every
 * field, that a file below 3 carries no {@code lookup_thresholds}, and that the program, if any, is the standard run. Absent {@code program},
 * {@code promoted}, {@code thresholds}, {@code contracts}, {@code reach},
 * {@code sites.every_read} and format-2 fields read as absent or empty.
 *
 * <p>Writing gives one compact line without a trailing newline: record fields in the
 * reference's declaration order, maps sorted, counts as {@code 19.0}, doubles in Rust's
 * shortest spelling, non-ASCII text raw; optional fields only when present.
 */
public final class FlowFile {

    private FlowFile() {
    }

    /**
     * Reads a flow file.
     *
     * @throws FlowFormatException when it is not a flow this build can serve; the message names
     *                             the file and the reason
     * @throws IOException         when it cannot be read
     */
    public static Flow read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new FlowFormatException(file + ": not a stretto flow: it is not UTF-8 text");
        }
        try {
            return parse(text);
        } catch (FlowFormatException e) {
            throw new FlowFormatException(file + ": " + e.getMessage());
        }
    }

    /**
     * Parses a flow's JSON text.
     *
     * @throws FlowFormatException when it is not a flow this build can serve, with the reason
     */
    public static Flow parse(String json) throws FlowFormatException {
        return FlowReader.read(json);
    }

    /** The flow's file text: one compact JSON line, no trailing newline. */
    public static String toJson(Flow flow) {
        return FlowWriter.write(flow);
    }

    /**
     * Writes the flow to {@code file}, replacing it: the text goes to a temporary file in the
     * same directory first and is then moved over, so a reader never sees half a flow.
     */
    public static void write(Flow flow, Path file) throws IOException {
        Path target = file.toAbsolutePath();
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(temp, toJson(flow), StandardCharsets.UTF_8);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
