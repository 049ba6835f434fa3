/**
 * Reading and writing flow files exactly as the reference implementation does:
 * {@link dev.stretto.proxy.flow.file.FlowFile}.
 */
package dev.stretto.proxy.flow.file;
