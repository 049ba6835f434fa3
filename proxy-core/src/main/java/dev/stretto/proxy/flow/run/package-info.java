/**
 * A flow served in a session: {@link dev.stretto.proxy.flow.run.FlowSession} holds what lasts
 * the session, and each {@link dev.stretto.proxy.flow.run.FlowRun} is one run after an agent's
 * call, a state machine without I/O that its owner (the active-mode actor) drives: it says
 * which lookup to make or which question to ask, and when the run is over, what to answer.
 */
package dev.stretto.proxy.flow.run;
