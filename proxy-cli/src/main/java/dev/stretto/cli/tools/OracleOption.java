package dev.stretto.cli.tools;

import dev.stretto.proxy.OracleMode;

/** The {@code --oracle jev|replay|mock} option of {@code learn} and {@code promote}. */
final class OracleOption {

    private OracleOption() {
    }

    /** The mode named {@code value}, or {@code dflt} when the option is not given (null). */
    static OracleMode parse(String command, String value, OracleMode dflt) throws UsageException {
        if (value == null) {
            return dflt;
        }
        return OracleMode.named(value).orElseThrow(() ->
                new UsageException(command, "--oracle takes jev, replay or mock, not '" + value + "'"));
    }
}
