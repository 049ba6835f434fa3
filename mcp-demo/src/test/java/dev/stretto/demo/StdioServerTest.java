package dev.stretto.demo;

import dev.stretto.trace.log.JsonText;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StdioServerTest {
    private static final long WAIT_S = 10;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private static InputStream input(String... lines) {
        return new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static String call(String id, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                + "\"arguments\":" + arguments + "}}";
    }

    private static String answer(String id, String text) {
        StringBuilder quoted = new StringBuilder();
        JsonText.appendQuoted(quoted, text);
        return "{\"id\":\"" + id + "\",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":" + quoted
                + ",\"type\":\"text\"}],\"isError\":false}}";
    }

    private int serve(McpHandler.Sleeper sleeper, InputStream in, OutputStream out) {
        McpHandler handler = new McpHandler(new ToolBox(new EchoWorld(), Set.of(), Map.of()), sleeper);
        return new StdioServer(handler, in, out, new PrintStream(err, true, StandardCharsets.UTF_8)).run();
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(WAIT_S, TimeUnit.SECONDS)) {
            throw new AssertionError("timed out waiting for " + what);
        }
    }

    @Test
    void aSlowCallDoesNotHoldUpTheNextOne() {
        CountDownLatch fastAnswered = new CountDownLatch(1);
        RecordingOutput out = new RecordingOutput(text -> {
            if (text.contains("\"id\":\"fast\"")) {
                fastAnswered.countDown();
            }
        });
        // The slow call's wait ends only once the fast call, read after it, has been answered.
        int code = serve(_ -> await(fastAnswered, "the fast call's answer"),
                input(call("slow", "{\"delay_ms\":300}"), call("fast", "{\"delay_ms\":0}")), out);
        assertEquals(0, code);
        assertEquals(List.of(answer("fast", "{\"delay_ms\":0}"), answer("slow", "{\"delay_ms\":300}")), out.lines());
    }

    @Test
    void aSlowCallDoesNotHoldUpTheNextOneInRealTime() {
        RecordingOutput out = new RecordingOutput();
        assertEquals(0, serve(Thread::sleep,
                input(call("slow", "{\"delay_ms\":300}"), call("fast", "{\"delay_ms\":0}")), out));
        assertEquals(List.of(answer("fast", "{\"delay_ms\":0}"), answer("slow", "{\"delay_ms\":300}")), out.lines());
    }

    @Test
    void delayedCallsRunInParallel() {
        int calls = 50;
        CountDownLatch allWaiting = new CountDownLatch(calls);
        RecordingOutput out = new RecordingOutput();
        // Each call's wait ends only once every call is waiting: this passes only if they wait at the same time.
        int code = serve(_ -> {
            allWaiting.countDown();
            await(allWaiting, "all " + calls + " calls to wait at once");
        }, input(IntStream.range(0, calls).mapToObj(i -> call("c" + i, "{\"delay_ms\":100}")).toArray(String[]::new)), out);
        assertEquals(0, code);
        List<String> expected = new ArrayList<>(IntStream.range(0, calls)
                .mapToObj(i -> answer("c" + i, "{\"delay_ms\":100}")).toList());
        List<String> got = new ArrayList<>(out.lines());
        expected.sort(null);
        got.sort(null);
        assertEquals(expected, got);
        assertEquals(calls, out.writes().size(), "one write per answer line: lines never interleave");
    }

    @Test
    void endOfInputFinishesTheCallsInFlight() {
        CountDownLatch eofRead = new CountDownLatch(1);
        InputStream in = new FilterInputStream(input(call("late", "{\"delay_ms\":300,\"text\":\"x\"}"))) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    eofRead.countDown();
                }
                return n;
            }
        };
        RecordingOutput out = new RecordingOutput();
        // The call's wait ends only after the server has seen the end of its input.
        assertEquals(0, serve(_ -> await(eofRead, "the end of input"), in, out));
        assertEquals(List.of(answer("late", "{\"delay_ms\":300,\"text\":\"x\"}")), out.lines());
    }

    @Test
    void everyLineIsFlushedAndBlankLinesAreIgnored() {
        RecordingOutput out = new RecordingOutput();
        String in = "\n   \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\t\r\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "not json\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"; // no newline at the end
        assertEquals(0, serve(Thread::sleep, new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out));
        assertEquals(List.of("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}",
                "{\"error\":{\"code\":-32700,\"message\":\"Parse error\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}"), out.lines());
        assertEquals(3, out.flushes());
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void invalidUtf8IsAParseError() {
        RecordingOutput out = new RecordingOutput();
        byte[] in = {'{', '"', (byte) 0xFF, '"', ':', '1', '}', '\n'};
        assertEquals(0, serve(Thread::sleep, new ByteArrayInputStream(in), out));
        assertEquals(List.of("{\"error\":{\"code\":-32700,\"message\":\"Parse error\"},\"id\":null,\"jsonrpc\":\"2.0\"}"),
                out.lines());
    }

    @Test
    void aLongLineIsReadWhole() {
        String text = "x".repeat(100_000);
        RecordingOutput out = new RecordingOutput();
        assertEquals(0, serve(Thread::sleep, input(call("big", "{\"text\":\"" + text + "\"}")), out));
        assertEquals(List.of(answer("big", "{\"text\":\"" + text + "\"}")), out.lines());
    }

    @Test
    void aBrokenStdoutEndsTheServerWithExitCode1() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        assertEquals(1, serve(Thread::sleep, input("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"), broken));
        assertEquals("stretto-mcp-demo: cannot write stdout: Broken pipe\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailingStdinEndsTheServerWithExitCode1() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Input/output error");
            }
        };
        assertEquals(1, serve(Thread::sleep, failing, new RecordingOutput()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("stretto-mcp-demo: cannot read stdin: "));
    }
}
