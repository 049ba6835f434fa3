package dev.stretto.cli.tools;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file a command writes only at the end of its work ({@code learn}'s and {@code promote}'s
 * {@code --out}, {@code promote}'s {@code --report}), checked before the work starts and its
 * directory made if missing: learning from thousands of sessions must not end in a path that
 * cannot be written.
 */
final class OutputFile {

    private OutputFile() {
    }

    /**
     * @param command the subcommand, for a usage error's hint
     * @param option  the option that named the file
     * @param what    what is written there, as in "give the file to write the flow to"
     * @throws UsageException when {@code file} is a directory
     * @throws IOException    when its directory cannot be made or written in; the message says which
     */
    static void prepare(String command, String option, Path file, String what) throws UsageException, IOException {
        if (Files.isDirectory(file)) {
            throw new UsageException(command, option + " " + file + " is a directory: give the file to write "
                    + what + " to");
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
        } catch (FileSystemException e) {
            String why = switch (e) {
                case FileAlreadyExistsException x -> "a file is in the way";
                case AccessDeniedException x -> "permission denied";
                default -> e.getReason() == null ? e.getClass().getSimpleName() : e.getReason();
            };
            throw new IOException(e.getFile() + ": cannot make the directory of " + option + " " + file
                    + " (" + why + ")", e);
        }
        if (!Files.isWritable(dir)) {
            throw new IOException(dir + ": cannot write " + option + " " + file + " there (permission denied)");
        }
    }
}
