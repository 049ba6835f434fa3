package dev.stretto.proxy.nopreview;

import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.UpstreamSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;

/**
 * A program that embeds the proxy, for {@code PreviewCheckTest} to run in a JVM of its own
 * (without {@code --enable-preview}): one recorded session with {@code cat}. Uses no preview
 * feature itself, so that only the proxy can be the one to need them. Prints what happened.
 */
public final class EmbeddingMain {
    private EmbeddingMain() {
    }

    public static void main(String[] args) {
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("cat")).record(Path.of(args[0])).build();
        try {
            int status = Proxy.run(config, new ByteArrayInputStream("x\n".getBytes()), new ByteArrayOutputStream())
                    .exitStatus();
            System.out.println("ran: " + status);
        } catch (ProxyStartException e) {
            System.out.println("ProxyStartException: " + e.getMessage());
        } catch (Throwable e) {
            System.out.println("other: " + e);
        }
    }
}
