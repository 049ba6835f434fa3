/**
 * The arbiter, shared by the proxy and by learning: the one next-step request a decision asks
 * the System-One model ({@link dev.stretto.proxy.flow.arbiter.NextStepRequest}, with the
 * conversation's {@link dev.stretto.proxy.flow.arbiter.StateSlice}), the answers
 * ({@link dev.stretto.proxy.flow.arbiter.ArbiterAnswers}), each option's features
 * ({@link dev.stretto.proxy.flow.arbiter.OptionFeatures}) and how a fitted fold judges them
 * ({@link dev.stretto.proxy.flow.arbiter.Arbiter}); the decider that asks and judges is
 * {@link dev.stretto.proxy.flow.arbiter.ArbiterScorer}.
 */
package dev.stretto.proxy.flow.arbiter;
