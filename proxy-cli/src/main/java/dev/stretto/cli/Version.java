package dev.stretto.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build, as {@code stretto-proxy --version} and {@code stretto --version}
 * print it: the project's version in the pom, which Maven writes into
 * {@code dev/stretto/cli/version.properties} when it builds the jar. One place, so that an
 * installed distribution says which release it is.
 */
public final class Version {

    /** This build's version, e.g. {@code 0.1.0}. */
    public static final String CURRENT = read();

    private Version() {
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("dev/stretto/cli/version.properties is missing from the class path");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            if (v.isEmpty() || v.startsWith("${")) {
                throw new IllegalStateException("dev/stretto/cli/version.properties was not filled in by the build: " + v);
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
