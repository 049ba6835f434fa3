package dev.stretto.proxy;

/**
 * Whether this JVM can run a session, checked before a session creates anything. Each session
 * is a {@code StructuredTaskScope}, a preview API in Java 25: the classes that use it ({@code
 * session.Session}, and its {@code TaskForks}, which nest scopes in the session's) are marked
 * as needing preview features, and loading {@code Session}, the first of them, fails in a
 * JVM started without {@code --enable-preview}, or in any JDK other than 25 (a class built
 * with one release's preview features runs on that release only; JDK 26 changes the API).
 *
 * <p>This class, and {@link Proxy}, use no preview feature, so they load anywhere from Java 25
 * on: the check can say what is wrong instead of failing with an {@link
 * UnsupportedClassVersionError} halfway through a session's start.
 */
final class PreviewCheck {
    /** The release this build's preview features belong to. */
    static final int RELEASE = 25;

    private static final String MARKED_CLASS = "dev.stretto.proxy.session.Session";

    private PreviewCheck() {
    }

    /** @throws ProxyStartException when sessions cannot run in this JVM; the message says what to do */
    static void require() throws ProxyStartException {
        try {
            // Loaded, not initialised: loading is where the class file's preview mark is checked.
            Class.forName(MARKED_CLASS, false, PreviewCheck.class.getClassLoader());
        } catch (UnsupportedClassVersionError e) {
            throw new ProxyStartException(message(Runtime.version().feature()), e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("proxy-core is incomplete: " + MARKED_CLASS + " is missing", e);
        }
    }

    static String message(int feature) {
        if (feature != RELEASE) {
            return "this build of proxy-core is for Java " + RELEASE + " and this JVM is Java " + feature
                    + ": each session is a StructuredTaskScope, a preview API in Java " + RELEASE + " that later JDKs"
                    + " change, and classes built with one release's preview features run on that release only."
                    + " Run it on a JDK " + RELEASE + " with --enable-preview.";
        }
        return "proxy-core needs the JVM option --enable-preview: each session is a StructuredTaskScope, a preview"
                + " API in Java " + RELEASE + ". Add --enable-preview to the java command that runs this program (for"
                + " tests, to the Surefire argLine). A JDK after " + RELEASE + " changes that API: this build of"
                + " proxy-core runs on Java " + RELEASE + " only.";
    }
}
