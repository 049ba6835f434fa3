package dev.stretto.cli.init;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Runs {@code stretto init} in this JVM with a home and a working directory of the test's own. */
record InitRunner(InitContext context) {

    /** The stretto-proxy every entry of these tests runs. */
    static final String PROXY = "/opt/stretto/bin/stretto-proxy";

    /** What one run printed and returned. */
    record Run(int status, String out, String err) {
    }

    static InitRunner in(Path tmp) throws IOException {
        return in(tmp, HostOs.LINUX, Map.of());
    }

    static InitRunner in(Path tmp, HostOs os, Map<String, String> env) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
        return new InitRunner(new InitContext(home, work, os, env, PROXY, clock));
    }

    InitRunner withClock(Instant at) {
        return new InitRunner(new InitContext(context.home(), context.workingDir(), context.os(), context.env(),
                context.proxy(), Clock.fixed(at, ZoneOffset.UTC)));
    }

    Path home() {
        return context.home();
    }

    Path work() {
        return context.workingDir();
    }

    Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = InitCli.run(List.of(args), o, e, context);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
