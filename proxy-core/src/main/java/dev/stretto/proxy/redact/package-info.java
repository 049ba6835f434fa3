/**
 * Internal: every rule that keeps a secret out of what the proxy writes. {@link
 * dev.stretto.proxy.redact.CommandRedactor} hides credential-looking values of a server command
 * (the log header's {@code server_command}), {@link dev.stretto.proxy.redact.UrlRedactor} an
 * upstream URL's credentials, {@link dev.stretto.proxy.redact.KnownTokens} tokens known by their
 * form wherever they are; {@link dev.stretto.proxy.redact.Secrets} holds the values an upstream
 * is sent (headers, URL credentials) and scrubs them from messages, {@link
 * dev.stretto.proxy.redact.LogScrubber} from the log's entries when a server echoes them. Used
 * by {@code record}, {@code http} and {@code upstream}; imports nothing of theirs. Not exported
 * by the module.
 */
package dev.stretto.proxy.redact;
