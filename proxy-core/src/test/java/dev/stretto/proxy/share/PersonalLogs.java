package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The six sessions of {@code testdata/personal/} (invented customers of a retail server, see
 * {@code testdata/README.md}), and every personal value they hold, read from the sessions
 * themselves: what no byte of a redacted copy may hold.
 */
final class PersonalLogs {

    private PersonalLogs() {
    }

    /** The directory, found above the module's directory. */
    static Path dir() {
        for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("testdata/personal");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("testdata/personal is missing above " + System.getProperty("user.dir"));
    }

    static List<Path> logs() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    /**
     * The personal values of a session: the customer's names, email, phone numbers, addresses
     * (street lines), zip, date of birth, card number (as digits and as written), IBAN, user
     * id, payment method id and the login in the server's home path.
     */
    static Set<String> values(Path log) throws IOException {
        SessionLog l = SessionLog.read(log);
        Set<String> out = new LinkedHashSet<>();
        String command = String.join(" ", l.header().serverCommand());
        out.add(command.replaceAll(".*/home/([^/]+)/.*", "$1"));
        for (LogEntry e : l.entries()) {
            if (!(e.payload() instanceof Payload.Message m)) {
                continue;
            }
            JsonNode msg = m.tree().orElseThrow();
            JsonNode text = msg.path("result").path("content").path(0).path("text");
            if (text.isTextual() && text.textValue().startsWith("{\"address\"") && text.textValue().contains("\"dob\"")) {
                JsonNode user = CanonicalJson.parse(text.textValue());
                out.add(user.path("name").path("first_name").textValue());
                out.add(user.path("name").path("last_name").textValue());
                out.add(user.path("email").textValue());
                out.add(user.path("phone").textValue());
                out.add(user.path("dob").textValue());
                out.add(user.path("user_id").textValue());
                out.add(user.path("address").path("address1").textValue());
                out.add(user.path("address").path("address2").textValue());
                out.add(user.path("address").path("zip").textValue());
                user.path("payment_methods").fieldNames().forEachRemaining(out::add);
            }
            JsonNode args = msg.path("params").path("arguments");
            if (args.has("address1")) {
                out.add(args.path("address1").textValue());
                out.add(args.path("address2").textValue());
            }
            if (e.from() == dev.stretto.trace.log.Source.CONTEXT) {
                String said = msg.path("content").asText();
                java.util.regex.Matcher card = java.util.regex.Pattern.compile("card is ([0-9 ]+[0-9])").matcher(said);
                if (card.find()) {
                    out.add(card.group(1));
                    out.add(card.group(1).replace(" ", ""));
                }
                java.util.regex.Matcher iban = java.util.regex.Pattern.compile("go to (DE[0-9 ]+[0-9])").matcher(said);
                if (iban.find()) {
                    out.add(iban.group(1));
                    out.add(iban.group(1).replace(" ", ""));
                }
                java.util.regex.Matcher phone = java.util.regex.Pattern.compile("me at (\\+1 \\(\\d+\\) \\d+-\\d+)").matcher(said);
                if (phone.find()) {
                    out.add(phone.group(1));
                }
            }
        }
        List<String> nulls = new ArrayList<>();
        out.removeIf(v -> v == null && nulls.add("null"));
        return out;
    }
}
