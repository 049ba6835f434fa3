/**
 * API: the tools a server listed in a session, each read, write or generic by its
 * {@code readOnlyHint} ({@link dev.stretto.trace.manifest.Manifest}).
 */
package dev.stretto.trace.manifest;
