package dev.stretto.proxy.policy;

import dev.stretto.proxy.PolicyAction;

/**
 * A budget of calls: of the calls it is about, at most so many in the session, of each tool,
 * or in any minute; a call past one of them gets the budget's action. Only calls that went to
 * the server count.
 *
 * @param id         its id, as refusals and the log name it
 * @param match      the calls it counts
 * @param perSession at most this many in the session, or null
 * @param perTool    at most this many of each tool, or null
 * @param perMinute  at most this many in any 60 seconds, or null
 * @param action     what a call past the budget gets: log, ask or deny
 * @param reason     why, or null for the budget's own words
 */
record Budget(String id, Match match, Long perSession, Long perTool, Long perMinute, PolicyAction action,
              String reason) {
}
