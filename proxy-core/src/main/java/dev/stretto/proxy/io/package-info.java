/**
 * Internal: lines as bytes. {@link dev.stretto.proxy.io.LineReader} splits a stream on
 * {@code '\n'} without decoding, trimming or a length limit; {@link dev.stretto.proxy.io.Line}
 * is what the pumps carry. Not exported by the module.
 */
package dev.stretto.proxy.io;
