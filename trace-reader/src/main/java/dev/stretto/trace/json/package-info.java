/**
 * Internal to the project: JSON as the reference writes it through a generic value (sorted
 * keys, compact, Rust's spelling of numbers), for files and answers that must match it byte for
 * byte. Exported by the module to proxy-core only.
 */
package dev.stretto.trace.json;
