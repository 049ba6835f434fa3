package dev.stretto.proxy.active;

import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.testing.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The real stretto-mcp-demo, started as a child process from the test class path. */
final class Demo {

    private Demo() {
    }

    /** The java command that runs the demo with {@code args}. */
    static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-preview",
                "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", ChildJvm.classPath(), "dev.stretto.demo.DemoMain"));
        command.addAll(List.of(args));
        return command;
    }

    /** {@code stretto-mcp-demo --world retail} as the proxy's server. */
    static UpstreamSpec.Command retail() {
        return new UpstreamSpec.Command(command("--world", "retail"));
    }
}
