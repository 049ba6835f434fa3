package dev.stretto.proxy.testing;

import java.io.File;

/** What a test needs to start a JVM of its own with the test's classes and dependencies. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * The test's classes and dependencies as one class path: this module's tests run on the
     * module path (proxy-core is a named module), where most of them are, so both paths are
     * joined.
     */
    public static String classPath() {
        String classPath = System.getProperty("java.class.path");
        String modulePath = System.getProperty("jdk.module.path");
        return modulePath == null || modulePath.isEmpty() ? classPath : modulePath + File.pathSeparator + classPath;
    }
}
