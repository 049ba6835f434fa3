/**
 * API: an episode as a τ²-bench simulation run ({@link dev.stretto.trace.tau2.Tau2Simulation}).
 */
package dev.stretto.trace.tau2;
