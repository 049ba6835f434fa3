package dev.stretto.proxy.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** How an I/O failure is worded in the proxy's messages: short, and without a stack trace. */
public final class IoMessages {

    private IoMessages() {
    }

    /** A short description of an I/O failure for a message, without a stack trace. */
    public static String describe(IOException e) {
        return switch (e) {
            case AccessDeniedException x -> "permission denied";
            case NoSuchFileException x -> "no such file or directory";
            case FileAlreadyExistsException x -> x.getReason() != null ? x.getReason() : "it already exists";
            case NotDirectoryException x -> "not a directory";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }
}
