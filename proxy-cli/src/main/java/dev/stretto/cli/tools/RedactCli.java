package dev.stretto.cli.tools;

import dev.stretto.proxy.share.FileOutcome;
import dev.stretto.proxy.share.PseudonymKey;
import dev.stretto.proxy.share.RedactionOptions;
import dev.stretto.proxy.share.RedactionRules;
import dev.stretto.proxy.share.Redactor;
import dev.stretto.proxy.share.ShareCopy;
import dev.stretto.proxy.share.ShareException;
import dev.stretto.proxy.share.ShareReport;
import dev.stretto.proxy.share.ValueKind;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/** {@code stretto redact}: its options, help and report; the redaction is {@code dev.stretto.proxy.share}'s. */
final class RedactCli {

    static final String COMMAND = "redact";

    static final String HELP = """
            Usage: stretto redact [options] IN... --out DIR

            Writes pseudonymised copies of session logs to share, from which stretto learn
            learns the same flow and stretto promote promotes the same sites. IN are session
            logs (their <session>.flow.jsonl and <session>.confirm.jsonl come along) and
            directories (searched with their subdirectories, whose layout the copy keeps).
            DIR gets a copy of each, under the same name, every line still JSON.

            Every personal value is replaced by a pseudonym of the same shape, the same one
            for the same value in every file of the run and in every run with the same key:
            emails (user-7f3a@example.invalid), phone numbers, payment card numbers
            (Luhn-valid, same length), IBANs, IP addresses, street addresses, names, dates of
            birth, zip codes and ids under the keys that say so (first_name, email, zip, dob,
            user_id, ...), and secrets (tokens, passwords); then every value found anywhere
            is replaced wherever else it stands: in the conversation, in tool arguments, in
            results and in JSON inside text. Letters keep their case, so values that differ
            only by case still differ only by case. See docs/redact.md.

            Options:
              --out DIR             where the copies go (required; made 0700 when missing;
                                    an existing file is never replaced)
              --key-file FILE       the pseudonyms' secret key (default ~/.stretto/redact.key,
                                    made with a random key, 0600, when missing)
              --rules FILE          more keys, pointers per tool, patterns and values to
                                    keep (a JSON file, see docs/redact.md)
              --keep FIELD          keep the values of FIELD as they are, there and wherever
                                    else they stand (repeatable)
              --keep-host-session   keep the header's host_session (default: a pseudonym,
                                    the same for logs of one host session)
              --keep-server-paths   keep the home paths of server_command (default: the
                                    segments under a home directory get pseudonyms)
              --shift-start-time    move each session's start back by whole days drawn from
                                    the key (its id and file names move with it)
              --dry-run             read everything and print the report, write nothing
                                    (a missing key file is not made)
              -h, --help            show this help

            On stderr: a line per file (the values replaced, by kind, and where the copy went,
            or why it was skipped), then the totals.

            Exit status:
              0  every log found was copied (files that are not logs are named and skipped)
              1  some log could not be read or copied, or a copy would replace a file, or the
                 key or rules file cannot be used (the others are still copied)
              2  usage error
            """;

    private RedactCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--help", "-h", "--dry-run", "--keep-host-session",
                        "--keep-server-paths", "--shift-start-time"), Set.of("--out", "--key-file", "--rules"),
                Set.of("--keep"));
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        if (a.operands().isEmpty()) {
            throw new UsageException(COMMAND, "no IN given (session logs or directories)");
        }
        String outDir = a.values().get("--out");
        if (outDir == null) {
            throw new UsageException(COMMAND, "--out is required");
        }
        Path out0 = Path.of(outDir);
        if (Files.exists(out0) && !Files.isDirectory(out0)) {
            throw new UsageException(COMMAND, "--out " + outDir + " is a file, not a directory");
        }
        boolean dryRun = a.has("--dry-run");
        try {
            RedactionRules rules = a.values().containsKey("--rules")
                    ? RedactionRules.read(Path.of(a.values().get("--rules"))) : RedactionRules.none();
            rules = rules.keepingFields(a.repeated().getOrDefault("--keep", List.of()));
            PseudonymKey key = key(a, env, dryRun, err);
            RedactionOptions options = new RedactionOptions(a.has("--keep-host-session"), a.has("--keep-server-paths"),
                    a.has("--shift-start-time"));
            List<Path> inputs = new ArrayList<>();
            for (String in : a.operands()) {
                inputs.add(Path.of(in));
            }
            ShareReport report = ShareCopy.run(Redactor.of(key, rules, options), inputs, out0, dryRun);
            print(report, out0, err);
            return report.failed() ? Stretto.EXIT_BAD_INPUT : Stretto.EXIT_OK;
        } catch (ShareException e) {
            err.println("stretto: " + e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        }
    }

    private static PseudonymKey key(Args a, Map<String, String> env, boolean dryRun, PrintStream err)
            throws UsageException, IOException {
        Path file;
        if (a.values().containsKey("--key-file")) {
            file = Path.of(a.values().get("--key-file"));
        } else {
            String home = env.getOrDefault("HOME", System.getProperty("user.home"));
            if (home == null || home.isEmpty()) {
                throw new UsageException(COMMAND, "HOME is not set: pass --key-file");
            }
            file = Path.of(home, ".stretto", "redact.key");
        }
        if (dryRun && !Files.exists(file)) {
            err.println("stretto: no key in " + file + " yet (a dry run makes none): counting with a key for this run only");
            return PseudonymKey.random();
        }
        PseudonymKey key = PseudonymKey.loadOrCreate(file);
        if (key.created()) {
            err.println("stretto: made a new pseudonym key in " + file + " (0600); keep it to give the same values the"
                    + " same pseudonyms in later runs, and never share it");
        }
        return key;
    }

    private static void print(ShareReport report, Path outDir, PrintStream err) {
        String verb = report.dryRun() ? "would replace" : "replaced";
        int redacted = 0;
        int skipped = 0;
        for (FileOutcome o : report.outcomes()) {
            switch (o) {
                case FileOutcome.Redacted r -> {
                    redacted++;
                    err.println("stretto: " + r.source() + ": " + verb + " " + values(r.total(), r.replaced())
                            + (report.dryRun() ? "" : " -> " + r.target()));
                    if (r.tornLine() > 0) {
                        err.println("stretto: " + r.source() + ": line " + r.tornLine() + " is torn (the proxy stopped"
                                + " while writing it): left out of the copy");
                    }
                }
                case FileOutcome.Skipped s -> {
                    skipped++;
                    err.println("stretto: skipped " + s.source() + ": " + s.reason());
                }
            }
        }
        int total = report.replaced().values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder last = new StringBuilder("stretto: ");
        last.append(redacted).append(redacted == 1 ? " file" : " files")
                .append(report.dryRun() ? " to redact into " : " redacted into ").append(outDir);
        last.append(", ").append(skipped).append(" skipped; ").append(verb).append(' ')
                .append(values(total, report.replaced())).append(" (").append(report.values())
                .append(report.values() == 1 ? " distinct value" : " distinct values").append(')');
        if (report.dryRun()) {
            last.append("; nothing written");
        }
        err.println(last);
        if (report.secondChoices() > 0) {
            err.println("stretto: " + report.secondChoices() + " of them did not get their first pseudonym (it was"
                    + " taken, or already a word of the logs), so a run over other logs may give them another");
        }
    }

    private static String values(int total, Map<ValueKind, Integer> byKind) {
        if (total == 0) {
            return "no values";
        }
        StringJoiner kinds = new StringJoiner(", ", " (", ")");
        for (ValueKind k : ValueKind.values()) {
            Integer n = byKind.get(k);
            if (n != null && n > 0) {
                kinds.add(k.wireName() + " " + n);
            }
        }
        return total + (total == 1 ? " value" : " values") + kinds;
    }
}
