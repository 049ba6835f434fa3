/**
 * proxy-cli: the {@code stretto-proxy} and {@code stretto} commands, clients of the library.
 * They use only what proxy-core ({@code dev.stretto.proxy}, {@code dev.stretto.proxy.flow},
 * {@code dev.stretto.proxy.share}) and trace-reader export: whatever they do, a program on the
 * module path can do too. Their own packages are arguments, usage, exit codes, messages, text
 * and the console's pages; nothing here is an API. On the module path they run with {@code
 * --enable-native-access=dev.stretto.proxy,dev.stretto.cli} ({@code stretto} asks whether
 * stderr is a terminal, the proxy's subreaper and math library are native).
 */
module dev.stretto.cli {
    requires dev.stretto.proxy;
    // stretto init reads and checks Codex's config.toml with it.
    requires com.fasterxml.jackson.dataformat.toml;
    // stretto console serves its pages with the JDK's HTTP server.
    requires jdk.httpserver;
}
