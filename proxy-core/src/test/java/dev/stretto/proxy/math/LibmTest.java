package dev.stretto.proxy.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class LibmTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void theFunctionsAreTheOnesInTheSystemsLibmSharedObject() {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup libm = SymbolLookup.libraryLookup("libm.so.6", arena);
            SymbolLookup used = Linker.nativeLinker().defaultLookup();
            for (String name : new String[] {"log", "exp", "cos", "pow"}) {
                assertEquals(libm.find(name).orElseThrow().address(), used.find(name).orElseThrow().address(),
                        name + " must resolve to libm.so.6's own symbol");
            }
        }
    }

    /**
     * Inputs where glibc's last bit differs from both Math's and StrictMath's: what the
     * reference (Rust on glibc) computes, and what reproducing its learned alpha needs.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void reproducesGlibcWhereJavasMathDiffersInTheLastBit() {
        double x = Double.longBitsToDouble(4613230625169352390L); // 2.685943187568088
        assertEquals(0.98803194656242, Libm.log(x));
        assertNotEquals(Math.log(x), Libm.log(x));
        assertNotEquals(StrictMath.log(x), Libm.log(x));

        double y = Double.longBitsToDouble(4610396213429177202L); // 1.713605758741974
        assertEquals(-0.14232450473878816, Libm.cos(y));
        assertNotEquals(Math.cos(y), Libm.cos(y));
        assertNotEquals(StrictMath.cos(y), Libm.cos(y));
    }

    @Test
    void agreesWithJavaToTheLastBitOrOneUnitForOrdinaryValues() {
        assertEquals(0.0, Libm.log(1.0));
        assertEquals(1.0, Libm.exp(0.0));
        assertEquals(1.0, Libm.cos(0.0));
        assertEquals(1024.0, Libm.pow(2.0, 10.0));
        assertEquals(Math.log(7.0 / 8.0), Libm.log(7.0 / 8.0), Math.ulp(Math.log(7.0 / 8.0)));
        assertEquals(Double.NEGATIVE_INFINITY, Libm.log(0.0));
        assertEquals(true, Double.isNaN(Libm.log(-1.0)));
    }
}
