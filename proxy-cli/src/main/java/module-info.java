/**
 * proxy-cli: the {@code stretto-proxy} and {@code stretto} commands, clients of the library.
 * They use only what proxy-core ({@code dev.stretto.proxy}, {@code dev.stretto.proxy.flow})
 * and trace-reader export: whatever they do, a program on the module path can do too. Their
 * own packages are arguments, usage, exit codes, messages and text output; nothing here is an
 * API.
 */
module dev.stretto.cli {
    requires dev.stretto.proxy;
    // stretto init reads and checks Codex's config.toml with it.
    requires com.fasterxml.jackson.dataformat.toml;
}
