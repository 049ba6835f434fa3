/**
 * API: a session as an {@link dev.stretto.trace.episode.Episode}: its tool calls, their
 * results and the LLM turns inferred from timing ({@link dev.stretto.trace.episode.Timeline}),
 * in the reference's Episode JSON.
 */
package dev.stretto.trace.episode;
