/**
 * The flow's arithmetic over an episode, shared by the proxy and by learning: its steps and
 * their symbols ({@link dev.stretto.proxy.flow.predict.Steps}), code features
 * ({@link dev.stretto.proxy.flow.predict.Features}), the habit and reach predictions and the habit
 * prior ({@link dev.stretto.proxy.flow.predict.Predictions}), and the standard program's tool
 * numbers and distributions ({@link dev.stretto.proxy.flow.predict.ToolNumbers},
 * {@link dev.stretto.proxy.flow.predict.ProgramDistributions}).
 */
package dev.stretto.proxy.flow.predict;
