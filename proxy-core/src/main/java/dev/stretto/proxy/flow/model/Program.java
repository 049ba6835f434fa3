package dev.stretto.proxy.flow.model;

/**
 * The flow's run as a fugue program. The only program this build runs is the standard one
 * {@code stretto learn} writes, which it recognises by structure and runs natively: decide at
 * the call's site; stop on hand back; otherwise look up, record the outcome, and decide again
 * at the lookup's site, at most {@code max_lookups} times.
 */
public enum Program {
    /** The standard run. */
    STANDARD;

    /** The standard program's JSON, exactly as the reference writes it. */
    public static final String STANDARD_JSON = "{\"fugue_program\":1,\"body\":["
            + "{\"stmt\":\"let\",\"var\":\"prev\",\"value\":{\"op\":\"var\",\"name\":\"call\"}},"
            + "{\"stmt\":\"let\",\"var\":\"failed\",\"value\":{\"op\":\"var\",\"name\":\"call_failed\"}},"
            + "{\"stmt\":\"for\",\"var\":\"i\",\"start\":{\"op\":\"int\",\"value\":0},"
            + "\"end\":{\"op\":\"var\",\"name\":\"max_lookups\"},\"body\":["
            + "{\"stmt\":\"sample\",\"var\":\"d\",\"addr\":{\"name\":\"decide\",\"index\":{\"op\":\"var\",\"name\":\"i\"}},"
            + "\"dist\":{\"name\":\"Decide\",\"args\":[{\"op\":\"var\",\"name\":\"prev\"},{\"op\":\"var\",\"name\":\"failed\"}]}},"
            + "{\"stmt\":\"if\",\"cond\":{\"op\":\"eq\",\"lhs\":{\"op\":\"var\",\"name\":\"d\"},"
            + "\"rhs\":{\"op\":\"int\",\"value\":0}},\"then\":[{\"stmt\":\"break\"}]},"
            + "{\"stmt\":\"sample\",\"var\":\"ok\",\"addr\":{\"name\":\"outcome\",\"index\":{\"op\":\"var\",\"name\":\"i\"}},"
            + "\"dist\":{\"name\":\"Outcome\",\"args\":[{\"op\":\"var\",\"name\":\"d\"}]}},"
            + "{\"stmt\":\"assign\",\"var\":\"prev\",\"value\":{\"op\":\"var\",\"name\":\"d\"}},"
            + "{\"stmt\":\"assign\",\"var\":\"failed\",\"value\":{\"op\":\"not\",\"arg\":{\"op\":\"var\",\"name\":\"ok\"}}}]}],"
            + "\"ret\":{\"op\":\"var\",\"name\":\"prev\"}}";
}
