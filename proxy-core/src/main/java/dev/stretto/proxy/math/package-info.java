/**
 * Internal: the numbers flows depend on, bit for bit as the reference computes them (the C
 * library's log, exp, cos and pow through the FFM API; splitmix64; FNV-1a). Not exported by
 * the module.
 */
package dev.stretto.proxy.math;
