package dev.stretto.cli.tools;

/** A command line that cannot be run as written; exits with {@link Stretto#EXIT_USAGE}. */
final class UsageException extends Exception {

    private final String command;

    /**
     * @param command the subcommand whose --help explains the fix, or null for the top level
     * @param message what is wrong
     */
    UsageException(String command, String message) {
        super(message, null, false, false);
        this.command = command;
    }

    /** The one stderr line: the problem and where to read more. */
    String line() {
        String help = command == null ? "stretto --help" : "stretto " + command + " --help";
        return "stretto: " + (command == null ? "" : command + ": ") + getMessage() + " (see '" + help + "')";
    }
}
