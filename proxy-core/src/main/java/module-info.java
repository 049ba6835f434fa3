/**
 * proxy-core: the stretto-proxy session runtime and the flow engine as a library. The API is
 * three packages: {@code dev.stretto.proxy} (sessions, active mode and its settings, policies, the
 * System-One oracle, the guards' replay, the judge's log), {@code dev.stretto.proxy.flow}
 * (flows: read, write, learn, promote, evaluate, show) and {@code dev.stretto.proxy.share}
 * (pseudonymised copies of sessions), with trace-reader's, whose types they use; every other
 * package is internal and not exported. Needs Java 25 with {@code --enable-preview} (see
 * {@link dev.stretto.proxy}); a program that makes the JVM a child subreaper ({@code
 * Subreaper}) runs it with {@code --enable-native-access=dev.stretto.proxy}.
 */
module dev.stretto.proxy {
    requires transitive dev.stretto.trace;
    requires java.net.http;
    // The loopback callback of an OAuth sign-in, and the listener for hosts over HTTP.
    requires jdk.httpserver;
    // Policies (--policy FILE) may be YAML.
    requires com.fasterxml.jackson.dataformat.yaml;
    requires org.yaml.snakeyaml;

    exports dev.stretto.proxy;
    exports dev.stretto.proxy.flow;
    exports dev.stretto.proxy.share;
}
