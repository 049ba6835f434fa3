package dev.stretto.proxy.logging;

import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.ProxyMessages.Level;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * What every part of proxy-core says its messages through, at a level, with {@code {}}
 * placeholders filled from the arguments in order. Each message goes to the handler of the
 * session it is said in: {@link #callWith} binds it for the whole session (its scopes' forks
 * inherit it, and the platform threads a session starts take it along through {@link
 * #carry}); outside a session, to stderr at {@link Level#INFO} (what {@code StderrMessages}
 * gives). A
 * handler's text is made only when it wants the level, and a handler that throws loses that
 * one message. No state of its own besides the scoped value: sessions with different handlers
 * run side by side.
 */
public final class Logger {

    private static final ScopedValue<ProxyMessages> HANDLER = ScopedValue.newInstance();

    private static final class Default {
        static final ProxyMessages HANDLER = new StderrHandler(StderrQueue.shared(), Level.INFO);
    }

    private Logger() {
    }

    /** The handler messages said on this thread go to. */
    public static ProxyMessages current() {
        return HANDLER.isBound() ? HANDLER.get() : Default.HANDLER;
    }

    /** Runs {@code task} with the messages said on this thread, and on its forks, going to {@code handler}. */
    public static void runWith(ProxyMessages handler, Runnable task) {
        ScopedValue.where(HANDLER, handler).run(task);
    }

    /** Calls {@code op} with the messages said on this thread, and on its forks, going to {@code handler}. */
    public static <T, X extends Throwable> T callWith(ProxyMessages handler, ScopedValue.CallableOp<T, X> op)
            throws X {
        return ScopedValue.where(HANDLER, handler).call(op);
    }

    /**
     * {@code task}, to run on a thread of its own (which inherits no scoped value), with the
     * handler of the thread that calls this.
     */
    public static Runnable carry(Runnable task) {
        ProxyMessages handler = current();
        return () -> runWith(handler, task);
    }

    /**
     * {@code call}, as a supplier to run on another thread (a {@code CompletableFuture}'s), with
     * the handler of the thread that calls this; a checked exception it throws comes out wrapped
     * in a {@link java.util.concurrent.CompletionException}.
     */
    public static <T> java.util.function.Supplier<T> carryCall(java.util.concurrent.Callable<T> call) {
        return carryCall(current(), call);
    }

    /** As {@link #carryCall(java.util.concurrent.Callable)}, with the messages going to {@code handler}. */
    public static <T> java.util.function.Supplier<T> carryCall(ProxyMessages handler,
                                                               java.util.concurrent.Callable<T> call) {
        return () -> {
            try {
                return callWith(handler, call::call);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        };
    }

    /** A message at TRACE, as it is. */
    public static void trace(Object message) {
        say(Level.TRACE, null, message, null);
    }

    /** A message at TRACE, its {@code {}} filled from {@code args}. */
    public static void trace(String message, Object... args) {
        say(Level.TRACE, null, message, args);
    }

    /** A message at DEBUG, as it is. */
    public static void debug(Object message) {
        say(Level.DEBUG, null, message, null);
    }

    /** A message at DEBUG, its {@code {}} filled from {@code args}. */
    public static void debug(String message, Object... args) {
        say(Level.DEBUG, null, message, args);
    }

    /** A message at DEBUG followed by {@code failure}'s stack trace. */
    public static void debug(Throwable failure, String message, Object... args) {
        say(Level.DEBUG, failure, message, args);
    }

    /** A message at INFO, as it is. */
    public static void info(Object message) {
        say(Level.INFO, null, message, null);
    }

    /** A message at INFO, its {@code {}} filled from {@code args}. */
    public static void info(String message, Object... args) {
        say(Level.INFO, null, message, args);
    }

    /** A message at WARN, as it is. */
    public static void warn(Object message) {
        say(Level.WARN, null, message, null);
    }

    /** A message at WARN, its {@code {}} filled from {@code args}. */
    public static void warn(String message, Object... args) {
        say(Level.WARN, null, message, args);
    }

    /** A message at ERROR, as it is. */
    public static void error(Object message) {
        say(Level.ERROR, null, message, null);
    }

    /** A message at ERROR, its {@code {}} filled from {@code args}. */
    public static void error(String message, Object... args) {
        say(Level.ERROR, null, message, args);
    }

    /**
     * A message a person must read to go on (the URL to sign in at), its {@code {}} filled from
     * {@code args}: given to the handler's {@link ProxyMessages#prompt} whatever its level.
     */
    public static void prompt(String message, Object... args) {
        try {
            current().prompt(format(message, args));
        } catch (RuntimeException lost) {
            // As for say: the handler's failure must not become the session's.
        }
    }

    private static void say(Level level, Throwable failure, Object message, Object[] args) {
        ProxyMessages handler = current();
        try {
            if (!handler.enabled(level)) {
                return;
            }
            String text = args == null ? String.valueOf(message) : format(String.valueOf(message), args);
            if (failure != null) {
                text = text + ": " + stackTrace(failure);
            }
            handler.message(level, text);
        } catch (RuntimeException lost) {
            // The handler's failure must not become the session's: that message is lost.
        }
    }

    /** {@code message} with each {@code {}} replaced by the next argument; extra ones stay as they are. */
    static String format(String message, Object... args) {
        if (args.length == 0) {
            return message;
        }
        StringBuilder s = new StringBuilder(message.length() + 16 * args.length);
        int from = 0;
        int next = 0;
        int at;
        while (next < args.length && (at = message.indexOf("{}", from)) >= 0) {
            s.append(message, from, at).append(args[next++]);
            from = at + 2;
        }
        return s.append(message, from, message.length()).toString();
    }

    private static String stackTrace(Throwable failure) {
        StringWriter out = new StringWriter();
        failure.printStackTrace(new PrintWriter(out));
        return out.toString().stripTrailing();
    }
}
