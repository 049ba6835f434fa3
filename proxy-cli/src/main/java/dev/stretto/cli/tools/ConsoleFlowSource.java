package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What the console's flows page reads through proxy-core: a flow file, as {@code stretto
 * flow-show} prints it, with the facts that match it to sessions. The one class of that page
 * that touches proxy-core's own packages.
 */
final class ConsoleFlowSource {

    FlowReport flow(Path flowFile, String name) throws IOException {
        Flow flow = FlowFile.read(flowFile);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            new FlowShow(out).print(name, flow);
        }
        return new FlowReport(text.toString(StandardCharsets.UTF_8), flow.manifest().domain(),
                flow.manifest().tools().keySet(), flow.provenance().compiledUnixMs(), flow.promoted() != null);
    }
}
