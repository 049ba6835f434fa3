package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.proxy.flow.Flow;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What the console's flows page reads through proxy-core: a flow file, as {@code stretto
 * flow-show} prints it, with the facts that match it to sessions. The one class of that page
 * that touches proxy-core.
 */
final class ConsoleFlowSource {

    FlowReport flow(Path flowFile, String name) throws IOException {
        Flow flow = FlowFiles.read(flowFile);
        FlowView view = FlowView.of(flow);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            new FlowShow(out).print(name, view);
        }
        return new FlowReport(text.toString(StandardCharsets.UTF_8), flow.domain(), flow.tools().keySet(),
                view.provenance().compiledUnixMs(), view.promoted() != null);
    }
}
