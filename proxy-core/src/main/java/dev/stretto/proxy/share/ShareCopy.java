package dev.stretto.proxy.share;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code stretto redact} on files: session logs and directories of them in, pseudonymised
 * copies out, under the same names. A session log's flow log and confirm log
 * ({@code <session>.flow.jsonl}, {@code <session>.confirm.jsonl}) come along with it; a
 * directory is searched with its subdirectories, and its copy keeps their layout. All the
 * files of one call are one run: one value, one pseudonym, in all of them.
 *
 * <p>What is not copied, and why: files that are not logs the proxy writes (said, not a
 * failure), oracle cache answers (they hold no personal values, and their names are hashes of
 * requests the redacted sessions no longer make), learned flows (learn them again from the
 * copies), logs that cannot be read, and copies that would replace a file that exists. A
 * torn last line (the proxy stopped while writing it) is left out of the copy. Copies are
 * written whole or not at all, readable by their owner only (0600), in directories made 0700.
 */
public final class ShareCopy {

    private enum Kind { SESSION, FLOW, CONFIRM }

    private record Input(Path source, Path target, Kind kind) {
    }

    private record Read(Input input, ShareFile file, int tornLine) {
    }

    private ShareCopy() {
    }

    /**
     * Redacts {@code inputs} into {@code outDir}.
     *
     * @param redactor the redactor (its key, rules and options)
     * @param inputs   session logs, flow or confirm logs, and directories
     * @param outDir   where the copies go (made when missing)
     * @param dryRun   whether to write nothing, only say what would be done
     * @return each file's outcome, with the counts of what was replaced
     * @throws IOException when {@code outDir} cannot be made, or a copy cannot be written
     */
    public static ShareReport run(Redactor redactor, List<Path> inputs, Path outDir, boolean dryRun) throws IOException {
        List<FileOutcome> outcomes = new ArrayList<>();
        List<Input> found = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (Path in : inputs) {
            expand(in, outDir, found, outcomes, seen);
        }
        List<Read> read = new ArrayList<>();
        for (Input i : found) {
            try {
                read.add(read(i));
            } catch (LogFormatException e) {
                outcomes.add(new FileOutcome.Skipped(i.source(), e.getMessage(), true));
            } catch (IOException e) {
                outcomes.add(new FileOutcome.Skipped(i.source(), describe(i.source(), e), true));
            }
        }
        RedactionResult result = redactor.redactFiles(read.stream().map(Read::file).toList());
        Set<Path> targets = new HashSet<>();
        for (int k = 0; k < read.size(); k++) {
            Read r = read.get(k);
            RedactedFile f = result.files().get(k);
            Path target = r.input().target().resolveSibling(f.redacted().name());
            if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS) || !targets.add(target.toAbsolutePath().normalize())) {
                outcomes.add(new FileOutcome.Skipped(r.input().source(), target + " exists already (not replaced)", true));
                continue;
            }
            if (!dryRun) {
                try {
                    write(target, text(f.redacted()));
                } catch (FileAlreadyExistsException raced) {
                    outcomes.add(new FileOutcome.Skipped(r.input().source(), target + " exists already (not replaced)", true));
                    continue;
                }
            }
            outcomes.add(new FileOutcome.Redacted(r.input().source(), target, f.replaced(), r.tornLine()));
        }
        return new ShareReport(outcomes, result.values(), result.secondChoices(), dryRun);
    }

    private static void expand(Path in, Path outDir, List<Input> found, List<FileOutcome> outcomes, Set<Path> seen)
            throws IOException {
        if (!Files.exists(in)) {
            outcomes.add(new FileOutcome.Skipped(in, "no such file or directory", true));
            return;
        }
        if (Files.isDirectory(in)) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(in)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            int before = found.size();
            for (Path f : files) {
                add(f, outDir.resolve(in.relativize(f).toString()), found, outcomes, seen, false);
            }
            if (found.size() == before) {
                outcomes.add(new FileOutcome.Skipped(in, "holds no session logs, flow logs or confirm logs", false));
            }
            return;
        }
        add(in, outDir.resolve(in.getFileName().toString()), found, outcomes, seen, true);
        Kind kind = kindOf(in);
        if (kind == Kind.SESSION) {
            String name = in.getFileName().toString();
            String base = name.substring(0, name.length() - SessionLog.SUFFIX.length());
            for (String side : List.of(".flow.jsonl", ".confirm.jsonl")) {
                Path beside = in.resolveSibling(base + side);
                if (Files.isRegularFile(beside)) {
                    add(beside, outDir.resolve(beside.getFileName().toString()), found, outcomes, seen, false);
                }
            }
        }
    }

    private static void add(Path file, Path target, List<Input> found, List<FileOutcome> outcomes, Set<Path> seen,
                            boolean named) {
        if (!seen.add(file.toAbsolutePath().normalize())) {
            return;
        }
        Kind kind = kindOf(file);
        if (kind != null) {
            found.add(new Input(file, target, kind));
            return;
        }
        String name = file.getFileName().toString();
        String reason;
        if (name.matches("[0-9a-f]{64}\\.json") && file.getParent() != null
                && file.getParent().getFileName().toString().matches("[0-9a-f]{2}")) {
            reason = "an oracle cache answer: it holds no personal values, and its name is the hash of a request"
                    + " made from the original sessions, which the copies do not make (not copied)";
        } else if (name.endsWith(".flow.json")) {
            reason = "a flow file: learn it again from the redacted copies (not copied)";
        } else {
            reason = "not a session log, flow log or confirm log (not copied)";
        }
        outcomes.add(new FileOutcome.Skipped(file, reason, named));
    }

    private static Kind kindOf(Path file) {
        String name = file.getFileName().toString();
        if (name.endsWith(".flow.jsonl")) {
            return Kind.FLOW;
        }
        if (name.endsWith(".confirm.jsonl")) {
            return Kind.CONFIRM;
        }
        return name.endsWith(SessionLog.SUFFIX) ? Kind.SESSION : null;
    }

    private static Read read(Input in) throws IOException {
        String name = in.source().getFileName().toString();
        if (in.kind() == Kind.SESSION) {
            SessionLog log = SessionLog.read(in.source());
            return new Read(in, new ShareFile.Session(name, log), log.tornLine());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(in.source()))).toString();
        } catch (CharacterCodingException e) {
            throw new IOException(in.source() + ": not UTF-8 text, so not a "
                    + (in.kind() == Kind.FLOW ? "flow log" : "confirm log"));
        }
        List<String> lines = new ArrayList<>();
        String[] all = text.split("\n", -1);
        int torn = 0;
        for (int i = 0; i < all.length; i++) {
            String line = all[i].endsWith("\r") ? all[i].substring(0, all[i].length() - 1) : all[i];
            if (line.isBlank()) {
                continue;
            }
            boolean object;
            try {
                object = CanonicalJson.parse(line).isObject();
            } catch (IllegalArgumentException e) {
                if (i == all.length - 1) {
                    // No newline after it, and not JSON: the proxy stopped while writing it.
                    torn = i + 1;
                    break;
                }
                throw new LogFormatException(in.source().toString(), i + 1, "not JSON: " + e.getMessage());
            }
            if (!object) {
                throw new LogFormatException(in.source().toString(), i + 1, "not a JSON object");
            }
            lines.add(line);
        }
        ShareFile file = in.kind() == Kind.FLOW ? new ShareFile.FlowLog(name, lines) : new ShareFile.ConfirmLog(name, lines);
        return new Read(in, file, torn);
    }

    private static String text(ShareFile f) {
        return switch (f) {
            case ShareFile.Session s -> s.log().toJsonLines();
            case ShareFile.FlowLog l -> lines(l.lines());
            case ShareFile.ConfirmLog l -> lines(l.lines());
        };
    }

    private static String lines(List<String> lines) {
        StringBuilder out = new StringBuilder();
        for (String l : lines) {
            out.append(l).append('\n');
        }
        return out.toString();
    }

    /** Writes {@code text} to {@code target} whole: a temporary file beside it, moved into place. */
    private static void write(Path target, String text) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        boolean posix = Files.getFileAttributeView(dir.getRoot(), PosixFileAttributeView.class) != null;
        if (!Files.isDirectory(dir)) {
            if (posix) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        Path temp = posix
                ? Files.createTempFile(dir, ".redact-", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(dir, ".redact-", ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    private static String describe(Path file, IOException e) {
        return switch (e) {
            case NoSuchFileException f -> "no such file or directory";
            case AccessDeniedException f -> "permission denied";
            default -> e.getMessage() == null ? e.toString() : e.getMessage().replace(file + ": ", "");
        };
    }
}
