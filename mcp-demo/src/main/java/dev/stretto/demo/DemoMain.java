package dev.stretto.demo;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code stretto-mcp-demo}: a small MCP server to try stretto-proxy against, on stdio or
 * Streamable HTTP. Exit codes: 0 done, 1 stdin or stdout failed (or the HTTP server could
 * not start), 2 bad usage.
 */
public final class DemoMain {
    static final String HELP = """
            stretto-mcp-demo 0.1.0: a small MCP server for trying stretto-proxy

            %s
                   stretto-mcp-demo --help | --version

            Serves MCP on stdin/stdout, one JSON-RPC message per line, until stdin ends
            (calls still running are answered first). Nothing but protocol goes to stdout.

            Worlds:
              echo (default)  lookup (read-only) and update (a write). Both store nothing and
                              answer with their arguments as JSON. "fail": true makes the call
                              return an error result; "delay_ms": n makes it wait n ms first
                              (at most 10000), without holding up other messages.
              retail          a tiny shop: find_user_id_by_email, get_user_details,
                              get_order_details (reads) and cancel_pending_order (a write).
                              cN@example.com is user_N, whose orders #WNa and #WNb are always
                              pending; a cancellation's reason must be 'no longer needed' or
                              'ordered by mistake'. Nothing is stored.
              tau2-retail     tau2-bench's retail domain: its 16 tools, answering byte for byte
                              as tau2's own code does, on its database (500 users, 1000
                              orders, 50 products; --db FILE for another in its format).
                              Each session starts on a fresh copy; its writes last until it
                              ends.

            Options:
              --world echo|retail|tau2-retail
                                      the world to serve (default echo)
              --db FILE               with --world tau2-retail: the database (tau2's db.json
                                      format) instead of the one the jar carries
              --hide TOOL             leave TOOL out of tools/list and refuse calls to it
                                      (repeatable)
              --hint TOOL=false       list TOOL with readOnlyHint false (a write)
              --hint TOOL=none        list TOOL with empty annotations (repeatable)
              --rug-pull TOOL=TEXT    from the second tools/list answer on, give TOOL the
                                      description TEXT, as a server that rewrites a tool after
                                      the host approved it would (to try a policy's pinning)
              --http ADDR             serve Streamable HTTP on ADDR (HOST:PORT, e.g.
                                      127.0.0.1:0 for a free port) at /mcp instead of stdio;
                                      prints the endpoint URL as the one line on stdout and
                                      serves until killed (SIGTERM or SIGINT); stdin is not read
              --require-auth VALUE    with --http: every request's Authorization header must be
                                      exactly VALUE, else 401
              -h, --help              print this help
              -V, --version           print the version

            Exit status: 0 once stdin has ended and every call is answered; 1 when stdin or
            stdout fails, or the HTTP server cannot start; 2 for a usage error (one line on
            stderr). With --http it serves until killed: 143 for SIGTERM, 130 for SIGINT.
            """.formatted(DemoOptions.USAGE);

    /** How long a GET stream stays open while its session lives. */
    private static final Duration GET_STREAM_LIMIT = Duration.ofSeconds(60);

    private DemoMain() {
    }

    public static void main(String[] args) {
        // Raw file descriptors: System.out may be replaced or buffered by a library, and
        // the protocol needs every byte of stdout.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int code = run(List.of(args), new FileInputStream(FileDescriptor.in), out, err);
        out.flush();
        System.exit(code);
    }

    /**
     * Runs {@code stretto-mcp-demo} with {@code args} in this JVM, on these streams instead of
     * stdin, stdout and stderr: a server a program can have in-process (the example harness
     * does). Serves until {@code in} ends and returns the exit code; closes no stream (close
     * {@code out} when it returns, so that its reader sees the end). In HTTP mode it returns
     * only on failure.
     */
    public static int run(List<String> args, InputStream in, OutputStream out, PrintStream err) {
        DemoOptions.Invocation invocation;
        try {
            invocation = DemoOptions.parse(args);
        } catch (DemoOptions.UsageException e) {
            err.println("stretto-mcp-demo: " + e.getMessage() + " (see --help)");
            return 2;
        }
        return switch (invocation) {
            case DemoOptions.Help _ -> print(out, err, HELP);
            case DemoOptions.Version _ -> print(out, err,
                    McpHandler.SERVER_NAME + " " + McpHandler.SERVER_VERSION + "\n");
            case DemoOptions.Serve(DemoOptions options) -> options.http().isPresent()
                    ? serveHttp(options, out, err)
                    : new StdioServer(new McpHandler(options.toolBox()).forSession(), in, out, err).run();
        };
    }

    private static int print(OutputStream out, PrintStream err, String text) {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return 0;
        } catch (IOException e) {
            err.println("stretto-mcp-demo: cannot write stdout: " + e.getMessage());
            return 1;
        }
    }

    private static int serveHttp(DemoOptions options, OutputStream out, PrintStream err) {
        HttpTransport transport;
        try {
            transport = HttpTransport.start(new McpHandler(options.toolBox()), options.http().orElseThrow(),
                    options.requireAuth(), GET_STREAM_LIMIT);
        } catch (IOException e) {
            err.println("stretto-mcp-demo: cannot serve HTTP on " + options.http().orElseThrow() + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            transport.close();
            stopped.countDown();
        }));
        if (print(out, err, transport.endpoint() + "\n") != 0) {
            transport.close();
            return 1;
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
