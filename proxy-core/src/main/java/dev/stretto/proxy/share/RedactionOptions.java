package dev.stretto.proxy.share;

/**
 * What a redaction does with the header of a session log, beyond the values it replaces
 * everywhere.
 *
 * @param keepHostSession whether {@code host_session} stays as it is; otherwise it gets a
 *                        pseudonym (the same one in every log of one host session, so that
 *                        logs of several servers are still merged by {@code learn})
 * @param keepServerPaths whether the file paths of {@code server_command} stay as they are;
 *                        otherwise the segments under a home directory ({@code
 *                        /home/alice/projects/acme}: {@code alice}, {@code acme}) get
 *                        pseudonyms, there and wherever else they stand
 * @param shiftStartTime  whether the session's start time moves back by a number of whole
 *                        days drawn from the key (the same for every session of a run, so
 *                        their order and overlaps stay); the session id, and so the file
 *                        names, move with it. Otherwise the time, the ids and the names stay
 */
public record RedactionOptions(boolean keepHostSession, boolean keepServerPaths, boolean shiftStartTime) {

    /** {@return host sessions and home paths pseudonymised, start times kept} */
    public static RedactionOptions defaults() {
        return new RedactionOptions(false, false, false);
    }
}
