/**
 * The confirmation judge ({@code --confirm-judge log|enforce}): whether the customer explicitly
 * agreed to the exact change a write is about to make, asked of the System-One model through
 * an {@link dev.stretto.proxy.oracle.Oracle}, with the model-free
 * {@link dev.stretto.proxy.judge.ProposalCheck} beside it, and the confirm log line of each
 * judgment. {@link dev.stretto.proxy.judge.Judge} is the entry point; it does no I/O itself.
 */
package dev.stretto.proxy.judge;
