/**
 * Internal: the proxy's own messages on their way out. {@link dev.stretto.proxy.logging.Logger}
 * is what every part of proxy-core says things through: it hands each message to the {@link
 * dev.stretto.proxy.ProxyMessages} handler of the session it belongs to (a scoped value bound
 * by {@code Proxy.run}, which the session's threads inherit), or to the default one, {@link
 * dev.stretto.proxy.logging.StderrHandler} on the JVM's one {@link
 * dev.stretto.proxy.logging.StderrQueue}, which never blocks the thread that speaks. Not
 * exported by the module.
 */
package dev.stretto.proxy.logging;
