package dev.stretto.proxy.policy;

import dev.stretto.proxy.PolicyAction;

/**
 * One rule of a policy: which calls it is about, and what it does with them.
 *
 * @param id     its id, as refusals and the log name it
 * @param match  the calls it is about
 * @param action what it does with them
 * @param reason why, as the agent is told when the rule refuses or holds a call; null for none
 */
record Rule(String id, Match match, PolicyAction action, String reason) {
}
