package dev.stretto.cli.init;

import java.util.Locale;

/** The operating systems whose usual places for host files {@code stretto init} knows. */
enum HostOs {
    LINUX, MACOS;

    /** This JVM's: macOS when {@code os.name} says so, Linux (and every other Unix) otherwise. */
    static HostOs current() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac") ? MACOS : LINUX;
    }
}
