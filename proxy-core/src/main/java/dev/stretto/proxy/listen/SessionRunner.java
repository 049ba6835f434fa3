package dev.stretto.proxy.listen;

import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.SessionInterruptedException;
import dev.stretto.proxy.SessionResult;
import java.io.InputStream;
import java.io.OutputStream;

/** Runs one proxy session between a pair of streams, as {@code Proxy.run} does, under a given name. */
@FunctionalInterface
public interface SessionRunner {

    /**
     * Runs the session to its end.
     *
     * @param config  the session's configuration
     * @param name    the session's id, which names its log
     * @param hostIn  the host's lines
     * @param hostOut where the session's lines for the host go
     * @param started run once the server has started, before anything is forwarded
     * @return how the session went
     * @throws ProxyStartException         when it could not start
     * @throws SessionInterruptedException when the running thread was interrupted
     */
    SessionResult run(ProxyConfig config, String name, InputStream hostIn, OutputStream hostOut, Runnable started)
            throws ProxyStartException, SessionInterruptedException;
}
