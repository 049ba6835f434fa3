package dev.stretto.cli.promote;

/**
 * The Wilson score interval's lower bound of a share {@code k / n} at 90% two-sided
 * ({@code z = 1.6448536}), as promotion holds sites to it:
 * {@code (p + z²/2n - z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)}, at least 0, and 0 when
 * {@code n} is 0. Three used of three gives 0.5258044340133321.
 */
public final class Wilson {

    /** The normal quantile of 95%, for a 90% two-sided interval. */
    public static final double Z = 1.6448536;

    private Wilson() {
    }

    /** The lower bound of {@code k} of {@code n}. */
    public static double lower(long k, long n) {
        if (n == 0) {
            return 0.0;
        }
        double p = (double) k / n;
        double z2 = Z * Z;
        double centre = p + z2 / (2 * n);
        double margin = Z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        return Math.max(0.0, (centre - margin) / (1 + z2 / n));
    }
}
