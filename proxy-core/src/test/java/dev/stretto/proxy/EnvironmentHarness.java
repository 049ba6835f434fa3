package dev.stretto.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A harness that states nothing about its surroundings ({@link EnvironmentDefaultTest} starts it
 * in a JVM of its own, with a HOME and a PATH of the test's choosing): a session recorded to
 * {@code ~/logs}, then one whose program does not exist. Prints where the log went and the
 * second session's error, one {@code name=value} a line.
 */
public final class EnvironmentHarness {

    private EnvironmentHarness() {
    }

    /** Runs both sessions. */
    public static void main(String[] args) throws Exception {
        SessionResult recorded = Proxy.run(ProxyConfig.builder(UpstreamSpec.Command.of("cat"))
                        .record(Path.of("~/logs")).build(),
                new ByteArrayInputStream("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                        .getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream());
        System.out.println("log=" + recorded.logPath());
        try {
            Proxy.run(ProxyConfig.builder(UpstreamSpec.Command.of("stretto-no-such-server")).build(),
                    new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
            System.out.println("missing=started");
        } catch (ProxyStartException e) {
            System.out.println("missing=" + e.getMessage());
        }
    }
}
