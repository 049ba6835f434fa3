/**
 * proxy-core: the stretto-proxy session runtime as a library. The API is the package
 * {@code dev.stretto.proxy} (and trace-reader's, whose types it uses) and {@code
 * dev.stretto.proxy.share} (pseudonymised copies of sessions); every other package below it
 * is internal and not exported. Needs Java 25 with {@code --enable-preview} (see {@link
 * dev.stretto.proxy}); a program that makes the JVM a child subreaper ({@code Subreaper}) runs
 * it with {@code --enable-native-access=dev.stretto.proxy}.
 */
module dev.stretto.proxy {
    requires transitive dev.stretto.trace;
    requires java.net.http;

    exports dev.stretto.proxy;
    exports dev.stretto.proxy.share;
}
