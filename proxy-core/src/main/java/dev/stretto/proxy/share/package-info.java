/**
 * Pseudonymised copies of sessions to share: {@code stretto redact} as a library. A {@link
 * dev.stretto.proxy.share.Redactor} rewrites a session log ({@code SessionLog}) and the flow and
 * confirm logs beside it with every personal value (emails, phone and card numbers, IBANs, IP
 * and street addresses, names and ids under the keys that say so, secrets, and what a {@link
 * dev.stretto.proxy.share.RedactionRules rules file} adds) replaced by a keyed pseudonym of the
 * same shape, the same everywhere, so that {@code stretto learn} learns the same flow from the
 * copies and {@code stretto promote} promotes the same sites. {@link
 * dev.stretto.proxy.share.ShareCopy} does it for files and directories, as the command does.
 */
package dev.stretto.proxy.share;
