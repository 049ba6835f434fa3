package dev.stretto.cli.tools;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Whether stderr is a terminal, asked of the C library's {@code isatty(2)}: the JDK can only
 * tell whether the JVM has a console (stdin and stdout), and progress bars belong on stderr
 * only when a person watches it, never in a log or a pipe.
 */
final class StderrTerminal {

    private static final int STDERR = 2;

    private StderrTerminal() {
    }

    /** True when file descriptor 2 is a terminal; false when that cannot be told. */
    static boolean isTerminal() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            return (int) isatty.invokeExact(STDERR) == 1;
        } catch (Throwable noLibc) {
            return false;
        }
    }
}
