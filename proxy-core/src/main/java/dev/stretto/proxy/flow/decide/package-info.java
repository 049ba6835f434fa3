/**
 * How a flow decides after a call: {@link dev.stretto.proxy.flow.decide.FlowDecider} applies
 * the rules of a decision with their exact hand-back reasons, a
 * {@link dev.stretto.proxy.flow.decide.Scorer} weighs the options (habit and reach at once; the
 * arbiter of {@code flow.arbiter} asks the System-One model first:
 * {@link dev.stretto.proxy.flow.decide.DecisionStep.AskOracle}), and
 * {@link dev.stretto.proxy.flow.decide.DeciderChoice} picks the decider a flow is served with.
 */
package dev.stretto.proxy.flow.decide;
