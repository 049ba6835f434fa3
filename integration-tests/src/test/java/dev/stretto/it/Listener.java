package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code stretto-proxy --listen 127.0.0.1:0 ARGS...} as a real process, with its endpoint's
 * URL (the first line it writes to stdout); and the TypeScript SDK hosts the tests put in
 * front of it (integration-tests/ts-host, installed by bin/test into .cache/ts-host).
 */
record Listener(Proc proc, String url) implements AutoCloseable {

    static Listener start(String... args) throws Exception {
        return start(Map.of(), args);
    }

    static Listener start(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto-proxy"), "--listen", "127.0.0.1:0"));
        command.addAll(List.of(args));
        Proc p = Proc.start(command, null, env);
        String url = p.nextLine();
        assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/mcp"), "the listener's URL line: " + url + "\n" + p.stderr());
        return new Listener(p, url);
    }

    /** Ends the listener as a service manager does (SIGTERM) and returns its exit status. */
    int terminate() throws Exception {
        proc.signal("TERM");
        return proc.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        proc.close();
    }

    /** What the SDK host printed, after checking it ended well ("host: ok"). */
    static List<String> host(List<String> args) throws Exception {
        Path sdk = Repo.root().resolve(".cache/ts-host/node_modules/@modelcontextprotocol/sdk");
        assertTrue(Files.isDirectory(sdk), "the TypeScript SDK is expected in " + sdk
                + "; run bin/lib/npm-install ts-host (bin/test does so before mvn verify)");
        List<String> command = new ArrayList<>(List.of("node",
                Repo.root().resolve("integration-tests/ts-host/host.mjs").toString()));
        command.addAll(args);
        try (Proc p = Proc.start(command, null, Map.of())) {
            int status = p.waitFor();
            String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
            assertEquals(0, status, "host exit status; stdout:\n" + out + "\nstderr:\n" + p.stderr());
            assertTrue(out.endsWith("\nhost: ok\n"), out);
            return out.lines().toList();
        }
    }
}
