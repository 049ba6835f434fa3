package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.PendingApproval;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * The files through which a person approves or denies a call a policy holds ({@code ask}): no
 * port is opened. Each session has a directory beside its log, {@code <session>.approvals/}
 * (made for its owner only, 0700), holding for each call that waits {@code <ID>.pending.json}
 * (the call: its session, tool, arguments, rule, deadline, and the proxy's process id). {@code
 * stretto approve ID} and {@code stretto deny ID} write {@code <ID>.decision.json} next to it
 * (written whole to a temporary file, then moved into place, so the proxy never reads half a
 * decision); the proxy looks for it on its clock's tick, acts on it, and removes both. A
 * session removes what is left of its files when it ends, and its directory once empty.
 *
 * <p>The proxy's side ({@link #ask}, {@link #decision}, {@link #done}) runs on the actor's
 * thread; the finding and deciding ({@link #pending}, {@link #decide}) in the commands.
 */
public final class ApprovalFiles {

    /** The name a session's directory of approvals ends with. */
    public static final String DIRECTORY = ".approvals";
    private static final String PENDING = ".pending.json";
    private static final String DECISION = ".decision.json";
    private static final String ID_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final int ID_LENGTH = 8;
    /** How deep below the directory given the commands look for sessions' approvals. */
    private static final int SEARCH_DEPTH = 8;

    private final Path dir;
    private final SecureRandom random = new SecureRandom();

    /** A person's answer to one call. */
    public record Decision(boolean approved, String reason) {
    }

    /** The approvals of one session, in {@code dir} (made when the first call waits). */
    public ApprovalFiles(Path dir) {
        this.dir = dir;
    }

    /** The directory of the approvals of the session logged at {@code sessionLog}: beside it. */
    public static Path besideSessionLog(Path sessionLog) {
        String name = sessionLog.getFileName().toString();
        String base = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        return sessionLog.resolveSibling(base + DIRECTORY);
    }

    /** The directory of the approvals of an unrecorded session: {@code ~/.stretto/approvals/<session>.approvals}. */
    public static Path ofUnrecorded(Path home, String session) {
        return home.resolve(".stretto").resolve("approvals").resolve(session + DIRECTORY);
    }

    /** The directory. */
    public Path directory() {
        return dir;
    }

    // ---- the proxy's side

    /**
     * Writes a call that waits, under a new id; returns the id.
     *
     * @throws IOException when the file cannot be written (the call is then refused: no one
     *                     could approve it)
     */
    public String ask(String session, String tool, JsonNode arguments, String rule, String reason, Instant asked,
                      Instant deadline) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException notPosix) {
                // The directory is as private as the file system makes it.
            }
        }
        String id;
        do {
            StringBuilder b = new StringBuilder(ID_LENGTH);
            for (int i = 0; i < ID_LENGTH; i++) {
                b.append(ID_LETTERS.charAt(random.nextInt(ID_LETTERS.length())));
            }
            id = b.toString();
        } while (Files.exists(dir.resolve(id + PENDING)));
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id);
        o.put("session", session);
        o.put("tool", tool);
        o.set("arguments", arguments);
        o.put("rule", rule);
        if (reason != null) {
            o.put("reason", reason);
        }
        o.put("asked_unix_ms", asked.toEpochMilli());
        o.put("deadline_unix_ms", deadline.toEpochMilli());
        o.put("pid", ProcessHandle.current().pid());
        writeWhole(dir.resolve(id + PENDING), CanonicalJson.write(o) + "\n");
        return id;
    }

    /** The decision a person wrote for {@code id}, if there is one yet. */
    public Optional<Decision> decision(String id) {
        Path file = dir.resolve(id + DECISION);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            JsonNode d = CanonicalJson.parse(Files.readString(file, StandardCharsets.UTF_8));
            String word = d.path("decision").asText("");
            if (!word.equals("approve") && !word.equals("deny")) {
                // Not one of ours: taken as a no, which is the safe reading.
                return Optional.of(new Decision(false, "the decision file could not be read"));
            }
            JsonNode reason = d.get("reason");
            return Optional.of(new Decision(word.equals("approve"), reason != null && reason.isTextual()
                    ? reason.textValue() : null));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of(new Decision(false, "the decision file could not be read"));
        }
    }

    /** The call {@code id} is settled: its files go, and the directory once it is empty. */
    public void done(String id) {
        try {
            Files.deleteIfExists(dir.resolve(id + PENDING));
            Files.deleteIfExists(dir.resolve(id + DECISION));
            try (DirectoryStream<Path> left = Files.newDirectoryStream(dir)) {
                if (!left.iterator().hasNext()) {
                    Files.deleteIfExists(dir);
                }
            }
        } catch (IOException e) {
            // Left behind: the commands skip a call whose deadline has passed.
        }
    }

    private static void writeWhole(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp" + ProcessHandle.current().pid());
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // As private as the file system makes it.
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    // ---- the commands' side

    /**
     * Every call that waits for approval under {@code root} (its sessions' approvals
     * directories at most {@link #SEARCH_DEPTH} levels down), oldest first: those whose
     * deadline has passed, or whose proxy is gone, are left out.
     *
     * @throws IOException when {@code root} cannot be read
     */
    public static List<PendingApproval> pending(Path root, Instant now) throws IOException {
        List<PendingApproval> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString());
        }
        Files.walkFileTree(root, EnumSet.noneOf(java.nio.file.FileVisitOption.class), SEARCH_DEPTH,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        String name = file.getFileName().toString();
                        Path parent = file.getParent();
                        if (attrs.isRegularFile() && name.endsWith(PENDING) && parent != null
                                && parent.getFileName().toString().endsWith(DIRECTORY)) {
                            read(file).filter(p -> live(p, file, now)).ifPresent(out::add);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;
                    }
                });
        out.sort(Comparator.comparing(PendingApproval::asked).thenComparing(PendingApproval::id));
        return out;
    }

    private static boolean live(PendingApproval p, Path file, Instant now) {
        if (!p.deadline().isAfter(now)) {
            return false;
        }
        try {
            JsonNode o = CanonicalJson.parse(Files.readString(file, StandardCharsets.UTF_8));
            long pid = o.path("pid").asLong(-1);
            return pid < 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    private static Optional<PendingApproval> read(Path file) {
        try {
            JsonNode o = CanonicalJson.parse(Files.readString(file, StandardCharsets.UTF_8));
            String id = o.path("id").asText(null);
            if (id == null || !file.getFileName().toString().equals(id + PENDING)) {
                return Optional.empty();
            }
            JsonNode args = o.get("arguments");
            return Optional.of(new PendingApproval(id, o.path("session").asText(""), o.path("tool").asText(""),
                    args == null ? JsonNodeFactory.instance.objectNode() : args, o.path("rule").asText(""),
                    o.path("reason").isTextual() ? o.get("reason").textValue() : null,
                    Instant.ofEpochMilli(o.path("asked_unix_ms").asLong()),
                    Instant.ofEpochMilli(o.path("deadline_unix_ms").asLong()), file));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes a person's decision on {@code call}.
     *
     * @throws IOException when it cannot be written
     */
    public static void decide(PendingApproval call, boolean approve, String reason, Instant now) throws IOException {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("decision", approve ? "approve" : "deny");
        if (reason != null) {
            o.put("reason", reason);
        }
        o.put("unix_ms", now.toEpochMilli());
        Path file = call.file().resolveSibling(call.id() + DECISION);
        writeWhole(file, CanonicalJson.write(o) + "\n");
        if (!Files.exists(call.file())) {
            // The proxy settled it meanwhile (its deadline passed): the decision reaches no one.
            Files.deleteIfExists(file);
            throw new NoSuchFileException(call.file().toString(), null, "the call no longer waits");
        }
    }

    /** Whether the proxy has taken the decision on {@code call} (its file is gone). */
    public static boolean taken(PendingApproval call) {
        return !Files.exists(call.file());
    }
}
