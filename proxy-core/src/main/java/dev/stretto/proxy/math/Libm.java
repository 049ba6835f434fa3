package dev.stretto.proxy.math;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The C library's {@code log}, {@code exp}, {@code cos} and {@code pow}, called through the
 * FFM API.
 *
 * <p>Why not {@link Math} or {@link StrictMath}: the reference implementation calls the
 * platform's libm (Rust's {@code f64::ln} and friends do), and glibc's results differ from
 * both Java's in the last bit for some inputs. Where such bits reach a file (the learned
 * {@code alpha} of a flow, the {@code logp} of a flow log's run line), only libm's own
 * functions reproduce the reference's files. {@code sqrt} is exact everywhere and needs none
 * of this.
 *
 * <p>The functions are looked up once, when this class is first used; a platform without a
 * C math library fails then with an {@link IllegalStateException} that says so. The JVM
 * should be started with {@code --enable-native-access=ALL-UNNAMED} (the launchers do), or
 * it warns on stderr the first time.
 */
public final class Libm {

    private static final MethodHandle LOG;
    private static final MethodHandle EXP;
    private static final MethodHandle COS;
    private static final MethodHandle POW;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup lookup = libm(linker);
        FunctionDescriptor unary = FunctionDescriptor.of(ValueLayout.JAVA_DOUBLE, ValueLayout.JAVA_DOUBLE);
        FunctionDescriptor binary = FunctionDescriptor.of(ValueLayout.JAVA_DOUBLE, ValueLayout.JAVA_DOUBLE,
                ValueLayout.JAVA_DOUBLE);
        LOG = linker.downcallHandle(find(lookup, "log"), unary, Linker.Option.critical(false));
        EXP = linker.downcallHandle(find(lookup, "exp"), unary, Linker.Option.critical(false));
        COS = linker.downcallHandle(find(lookup, "cos"), unary, Linker.Option.critical(false));
        POW = linker.downcallHandle(find(lookup, "pow"), binary, Linker.Option.critical(false));
    }

    private Libm() {
    }

    // The linker's default lookup holds libc and libm on Linux; elsewhere the library may
    // have to be named.
    private static SymbolLookup libm(Linker linker) {
        SymbolLookup lookup = linker.defaultLookup();
        if (lookup.find("log").isPresent()) {
            return lookup;
        }
        for (String name : new String[] {"libm.so.6", "libm.so", "libm.dylib"}) {
            try {
                return SymbolLookup.libraryLookup(name, java.lang.foreign.Arena.global());
            } catch (IllegalArgumentException e) {
                // Not on this platform; try the next name.
            }
        }
        throw new IllegalStateException("cannot find the C math library (libm): log, exp, cos and pow must come"
                + " from it to reproduce the reference's numbers bit for bit");
    }

    private static MemorySegment find(SymbolLookup lookup, String name) {
        Optional<MemorySegment> symbol = lookup.find(name);
        return symbol.orElseThrow(() -> new IllegalStateException("the C math library has no " + name + "()"));
    }

    /** The natural logarithm, as libm's {@code log}. */
    public static double log(double x) {
        return call(LOG, x);
    }

    /** e to the power {@code x}, as libm's {@code exp}. */
    public static double exp(double x) {
        return call(EXP, x);
    }

    /** The cosine, as libm's {@code cos}. */
    public static double cos(double x) {
        return call(COS, x);
    }

    /** {@code x} to the power {@code y}, as libm's {@code pow}. */
    public static double pow(double x, double y) {
        try {
            return (double) POW.invokeExact(x, y);
        } catch (Throwable t) {
            throw new IllegalStateException("libm pow failed", t);
        }
    }

    private static double call(MethodHandle f, double x) {
        try {
            return (double) f.invokeExact(x);
        } catch (Throwable t) {
            throw new IllegalStateException("libm call failed", t);
        }
    }
}
