package dev.stretto.cli.tools;

import dev.stretto.proxy.oracle.Oracle;

/** The {@code --oracle jev|replay|mock} option of {@code learn} and {@code promote}. */
final class OracleOption {

    private OracleOption() {
    }

    /** The mode named {@code value}, or {@code dflt} when the option is not given (null). */
    static Oracle.Mode parse(String command, String value, Oracle.Mode dflt) throws UsageException {
        if (value == null) {
            return dflt;
        }
        return Oracle.Mode.named(value).orElseThrow(() ->
                new UsageException(command, "--oracle takes jev, replay or mock, not '" + value + "'"));
    }
}
