package dev.stretto.proxy.flow;

import dev.stretto.proxy.flow.file.FlowFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads and writes {@code *.flow.json} files, formats 1 and 2, exactly as the reference
 * implementation does, so flows move between the two: a file read and written back is the same
 * bytes. The project's {@code docs/flows.md} describes the format.
 */
public final class FlowFiles {

    private FlowFiles() {
    }

    /**
     * Reads a flow file.
     *
     * @param file the file
     * @return the flow
     * @throws FlowFormatException when it is not a flow this build can serve; the message names
     *                             the file and the reason
     * @throws IOException         when it cannot be read
     */
    public static Flow read(Path file) throws IOException {
        return FlowFile.read(file);
    }

    /**
     * Parses a flow's JSON text.
     *
     * @param json the text of a flow file
     * @return the flow
     * @throws FlowFormatException when it is not a flow this build can serve, with the reason
     */
    public static Flow parse(String json) throws FlowFormatException {
        return FlowFile.parse(json);
    }

    /**
     * A flow's file text.
     *
     * @param flow the flow
     * @return one compact JSON line without a trailing newline, as the reference writes it
     */
    public static String toJson(Flow flow) {
        return FlowFile.toJson(dev.stretto.proxy.flow.model.Flow.of(flow));
    }

    /**
     * Writes a flow to {@code file}, replacing it: the text goes to a temporary file in the same
     * directory first and is then moved over, so a reader never sees half a flow.
     *
     * @param flow the flow
     * @param file where to write it
     * @throws IOException when it cannot be written
     */
    public static void write(Flow flow, Path file) throws IOException {
        FlowFile.write(dev.stretto.proxy.flow.model.Flow.of(flow), file);
    }
}
