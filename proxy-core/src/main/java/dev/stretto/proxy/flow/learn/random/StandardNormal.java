package dev.stretto.proxy.flow.learn.random;

import dev.stretto.proxy.math.Libm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Normal samples as {@code rand_distr 0.4.3} draws them ({@code Normal::new(mean, sd)} over
 * {@code StandardNormal}): the ziggurat method with that crate's own tables, which are
 * vendored as data (resource {@code ziggurat-normal.txt}, with their licence notice). The
 * tail and the wedge tests call libm's {@code ln} and {@code exp}, as Rust does.
 */
public final class StandardNormal {

    private static final String TABLES = "ziggurat-normal.txt";
    private static final int SIZE = 257;
    private static final double R;
    private static final double[] X = new double[SIZE];
    private static final double[] F = new double[SIZE];

    static {
        try (InputStream in = StandardNormal.class.getResourceAsStream(TABLES)) {
            if (in == null) {
                throw new IllegalStateException("the ziggurat tables " + TABLES + " are missing from the jar");
            }
            R = read(new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ziggurat tables " + TABLES, e);
        }
    }

    private StandardNormal() {
    }

    private static double read(BufferedReader lines) throws IOException {
        double r = Double.NaN;
        double[] target = null;
        int n = 0;
        int xs = 0;
        int fs = 0;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("R ")) {
                r = Double.parseDouble(line.substring(2));
            } else if (line.equals("X") || line.equals("F")) {
                target = line.equals("X") ? X : F;
                n = 0;
            } else {
                // Double.parseDouble rounds to the nearest double, as Rust reads a float literal.
                target[n++] = Double.parseDouble(line);
                if (target == X) {
                    xs = n;
                } else {
                    fs = n;
                }
            }
        }
        if (Double.isNaN(r) || xs != SIZE || fs != SIZE) {
            throw new IllegalStateException("the ziggurat tables " + TABLES + " are incomplete");
        }
        return r;
    }

    /** {@code Normal::new(mean, sd).sample(rng)}: {@code mean + sd * z}. */
    public static double sample(StdRng rng, double mean, double sd) {
        return mean + sd * sample(rng);
    }

    /** One {@code StandardNormal} sample. */
    public static double sample(StdRng rng) {
        while (true) {
            long bits = rng.nextU64();
            int i = (int) (bits & 0xFF);
            // 52 random bits as a number in [2, 4), minus 3: [-1, 1).
            double u = Double.longBitsToDouble((bits >>> 12) | (1024L << 52)) - 3.0;
            double x = u * X[i];
            if (Math.abs(x) < X[i + 1]) {
                return x;
            }
            if (i == 0) {
                return tail(rng, u);
            }
            if (F[i + 1] + (F[i] - F[i + 1]) * rng.nextF64() < Libm.exp(-x * x / 2.0)) {
                return x;
            }
        }
    }

    private static double tail(StdRng rng, double u) {
        double x = 1.0;
        double y = 0.0;
        while (-2.0 * y < x * x) {
            double x0 = rng.nextOpen01();
            double y0 = rng.nextOpen01();
            x = Libm.log(x0) / R;
            y = Libm.log(y0);
        }
        return u < 0.0 ? x - R : R - x;
    }
}
