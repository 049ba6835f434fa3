/**
 * The wire's JSON spelling, as the reference writes it through a generic value (sorted keys,
 * compact, Rust's spelling of numbers), for files and answers that must match it byte for byte
 * ({@link dev.stretto.trace.json.CanonicalJson}); numbers in text as Rust formats them ({@link
 * dev.stretto.trace.json.RustText}); and JSON-RPC ids as keys ({@link
 * dev.stretto.trace.json.JsonRpcId}). Every module that reads or writes the wire uses these.
 */
package dev.stretto.trace.json;
