package dev.stretto.examples.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.demo.DemoMain;
import dev.stretto.trace.log.LogEntry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's loop runs as it stands, in a harness on the module path: four sessions with the
 * retail demo recorded in memory, a flow learned from them, and a fifth session that serves it,
 * in which the proxy looks the customer's details up after the agent found the customer. The
 * snippet is a fragment; the harness around it gives it the names it takes as given: {@code
 * server}, the {@code conversations} and the served session's {@code fromAgent} and {@code
 * toAgent}, each an agent on a pair of pipes that waits for every answer before its next request.
 */
class ReadmeLoopTest {

    private static final String HARNESS = """
            package h;
            import dev.stretto.proxy.*;
            import java.util.List;
            %s
            import java.io.*;
            import java.nio.channels.Channels;
            import java.nio.channels.Pipe;
            import java.nio.charset.StandardCharsets;

            public class Loop {
                record Conversation(InputStream fromAgent, OutputStream toAgent) {
                }

                static final List<String> ANSWERS = new java.util.concurrent.CopyOnWriteArrayList<>();

                /** Customer n's agent: initialize, list the tools, find the customer, then (if asked) their details. */
                static Conversation agent(int n, boolean details) throws IOException {
                    Pipe toProxy = Pipe.open();
                    Pipe fromProxy = Pipe.open();
                    Thread.ofVirtual().start(() -> {
                        try (OutputStream out = Channels.newOutputStream(toProxy.sink());
                             BufferedReader in = new BufferedReader(new InputStreamReader(
                                     Channels.newInputStream(fromProxy.source()), StandardCharsets.UTF_8))) {
                            send(out, "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"initialize\\",\\"params\\":{"
                                    + "\\"protocolVersion\\":\\"2025-06-18\\",\\"capabilities\\":{},\\"clientInfo\\":"
                                    + "{\\"name\\":\\"harness\\",\\"version\\":\\"1\\"}}}");
                            in.readLine();
                            send(out, "{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"notifications/initialized\\"}");
                            send(out, "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":2,\\"method\\":\\"tools/list\\"}");
                            in.readLine();
                            send(out, "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":3,\\"method\\":\\"tools/call\\",\\"params\\":{"
                                    + "\\"name\\":\\"find_user_id_by_email\\",\\"arguments\\":{\\"email\\":\\"c" + n
                                    + "@example.com\\"}}}");
                            String found = in.readLine();
                            ANSWERS.add(found);
                            if (details) {
                                send(out, "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":4,\\"method\\":\\"tools/call\\",\\"params\\":{"
                                        + "\\"name\\":\\"get_user_details\\",\\"arguments\\":{\\"user_id\\":\\"user_" + n
                                        + "\\"}}}");
                                in.readLine();
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                    return new Conversation(Channels.newInputStream(toProxy.source()),
                            Channels.newOutputStream(fromProxy.sink()));
                }

                static void send(OutputStream out, String line) throws IOException {
                    out.write((line + "\\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }

                public static void main(String[] args) throws Exception {
                    UpstreamSpec server = UpstreamSpec.Command.of(args);
                    List<Conversation> conversations = new ArrayList<>();
                    for (int n = 1; n <= 4; n++) {
                        conversations.add(agent(n, true));
                    }
                    ANSWERS.clear();
                    Conversation fifth = agent(5, false);
                    InputStream fromAgent = fifth.fromAgent();
                    OutputStream toAgent = fifth.toAgent();
            %s
                    System.out.println("served: exit " + served.exitStatus() + ", " + served.lines());
                    System.out.println(ANSWERS.getLast());
                }
            }
            """;

    @Test
    void theReadmesLoopRecordsLearnsAndServesAFlowOnTheModulePath(@TempDir Path tmp) throws Exception {
        String block = ReadmeSnippetsTest.readmeLibraryBlocks(ReadmeSnippetsTest.repositoryRoot()).stream()
                .filter(b -> b.contains("Learning.fromSessions")).findFirst()
                .orElseThrow(() -> new AssertionError("the README's library section has no loop"));
        Set<String> imports = new LinkedHashSet<>();
        StringBuilder body = new StringBuilder();
        for (String line : block.lines().toList()) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                body.append("        ").append(line).append('\n');
            }
        }
        Path src = Files.createDirectories(tmp.resolve("src/h"));
        Files.writeString(src.resolveSibling("module-info.java"), "module h { requires dev.stretto.proxy; }");
        Files.writeString(src.resolve("Loop.java"), HARNESS.formatted(String.join("\n", imports), body));
        String modulePath = HarnessExampleTest.modulePath();
        assertEquals("", HarnessExampleTest.compile(modulePath, tmp, src.resolveSibling("module-info.java"),
                src.resolve("Loop.java")), Files.readString(src.resolve("Loop.java")));

        String java = ProcessHandle.current().info().command().orElseThrow();
        String demoPath = Stream.of(DemoMain.class, ObjectMapper.class, LogEntry.class,
                        com.fasterxml.jackson.core.JsonParser.class, com.fasterxml.jackson.annotation.JsonProperty.class)
                .map(HarnessExampleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(java, "--enable-preview",
                "--module-path", modulePath + File.pathSeparator + tmp.resolve("out"), "-m", "h/h.Loop",
                java, "-cp", demoPath, DemoMain.class.getName(), "--world", "retail"));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the harness did not end");
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.lines().toList();
        assertEquals(2, lines.size(), out);
        assertTrue(lines.get(0).matches("served: exit 0, LineCounts\\[fromClient=4, fromServer=\\d+, fromProxy=[1-9].*"),
                lines.get(0));
        assertTrue(lines.get(1).contains("user_5") && lines.get(1).contains("c5@example.com")
                && lines.get(1).contains("#W5a"), "the answer to the agent's call holds the lookup of its details: "
                + lines.get(1));
    }
}
