package dev.stretto.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves MCP on a pair of streams, one JSON-RPC message per line.
 *
 * <p>Threads: the caller's thread reads every line and answers everything that needs no
 * waiting itself, in order. A tool call with a delay runs on a virtual thread of its own,
 * so it holds up nothing read after it; calls without a delay are answered in the order
 * they came, which keeps a pipelined session's output predictable. All answers go through
 * one {@link LineWriter}. At the end of input the server waits for the delayed calls still
 * running, then returns.
 */
final class StdioServer {
    private final McpHandler handler;
    private final InputStream in;
    private final LineWriter out;
    private final PrintStream err;

    StdioServer(McpHandler handler, InputStream in, OutputStream out, PrintStream err) {
        this.handler = handler;
        this.in = in;
        this.out = new LineWriter(out);
        this.err = err;
    }

    /** Serves until the input ends; returns the exit code (0, or 1 if a read or write failed). */
    int run() {
        LineReader lines = new LineReader(in);
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            byte[] line;
            while (out.failure() == null && (line = lines.next()) != null) {
                if (LineReader.isBlank(line)) {
                    continue;
                }
                switch (handler.receive(line, 0, line.length)) {
                    case Inbound.Rejected r -> out.writeLine(r.errorJson());
                    case Inbound.Accepted _ -> {
                    }
                    case Inbound.Initialize i -> out.writeLine(i.answerJson());
                    case Inbound.Answer a -> out.writeLine(a.json());
                    case Inbound.ToolCall call when call.delayMillis() == 0 -> answer(call);
                    case Inbound.ToolCall call -> calls.execute(() -> answer(call));
                }
            }
        } catch (IOException e) {
            err.println("stretto-mcp-demo: cannot read stdin: " + e.getMessage());
            return 1;
        }
        // Leaving the try block closed the executor, which waited for the delayed calls.
        IOException failure = out.failure();
        if (failure != null) {
            err.println("stretto-mcp-demo: cannot write stdout: " + failure.getMessage());
            return 1;
        }
        return 0;
    }

    private void answer(Inbound.ToolCall call) {
        try {
            out.writeLine(call.answer());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
