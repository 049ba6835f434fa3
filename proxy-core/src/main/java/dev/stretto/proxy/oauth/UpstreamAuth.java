package dev.stretto.proxy.oauth;

import java.io.IOException;
import java.util.List;

/**
 * The one seam between the HTTP upstream and signing in: each request to the MCP server gets
 * its {@code Authorization} from {@link #authorization()}, and a refusal (401, or 403 with
 * {@code insufficient_scope}) is handed to {@link #refused}, which says whether to send the
 * request again. {@link #NONE} is the upstream without OAuth.
 */
public interface UpstreamAuth {

    /** No OAuth: no header, and every refusal is passed on. */
    UpstreamAuth NONE = new UpstreamAuth() {
        @Override
        public String authorization() {
            return null;
        }

        @Override
        public boolean wants(int status, List<String> challenges) {
            return false;
        }

        @Override
        public boolean refused(int status, List<String> challenges, String sent, boolean interactive) {
            return false;
        }
    };

    /**
     * The value of the {@code Authorization} header for the next request, or null for none;
     * tokens about to expire are refreshed first.
     *
     * @throws IOException          only for a failure to refresh that leaves nothing to send
     * @throws InterruptedException when interrupted
     */
    String authorization() throws IOException, InterruptedException;

    /**
     * Whether an answer with {@code status} and these {@code WWW-Authenticate} values is one
     * {@link #refused} handles (decided at once, without waiting for anything).
     */
    boolean wants(int status, List<String> challenges);

    /**
     * Handles a refusal of a request sent with {@code sent} (null: without a header): waits for a
     * sign-in under way, uses tokens that came meanwhile, refreshes, or, when {@code
     * interactive} (a request of the host's), signs in. Blocks while a sign-in runs.
     *
     * @return true to send the request again with {@link #authorization()}, false to pass the
     *         refusal on
     * @throws AuthorizationFailedException when signing in failed, saying why
     * @throws IOException                  when the authorization server cannot be reached
     * @throws InterruptedException         when interrupted
     */
    boolean refused(int status, List<String> challenges, String sent, boolean interactive)
            throws IOException, InterruptedException;
}
