package dev.stretto.trace.log;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the bytes of one log file into a {@link SessionLog}, or says which line is bad. */
final class SessionLogParser {

    private final String fileName;

    SessionLogParser(String fileName) {
        this.fileName = fileName;
    }

    /** Why a line is not what it should be; turned into a LogFormatException with its line. */
    private static final class BadLine extends Exception {
        BadLine(String reason) {
            super(reason, null, false, false);
        }
    }

    SessionLog parse(byte[] content) throws LogFormatException {
        LogHeader header = null;
        List<LogEntry> entries = new ArrayList<>();
        int lineNo = 0;
        int tornLine = 0;
        int start = 0;
        while (start < content.length) {
            int nl = indexOf(content, (byte) '\n', start);
            boolean torn = nl < 0;
            int end = torn ? content.length : nl;
            lineNo++;
            int lineStart = start;
            start = torn ? content.length : nl + 1;
            if (isBlank(content, lineStart, end)) {
                continue;
            }
            try {
                String line = decode(content, lineStart, end);
                if (header == null) {
                    header = parseHeader(line);
                } else {
                    entries.add(parseEntry(line));
                }
            } catch (BadLine e) {
                if (torn) {
                    // The proxy stopped, or the disk filled, in the middle of its last line.
                    tornLine = lineNo;
                    break;
                }
                throw new LogFormatException(fileName, lineNo, e.getMessage());
            }
        }
        if (header == null) {
            throw new LogFormatException(fileName, Math.max(lineNo, 1),
                    "not a session log: the file has no header line");
        }
        return new SessionLog(header, entries, tornLine);
    }

    private static int indexOf(byte[] b, byte v, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String decode(byte[] b, int from, int to) throws BadLine {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, to - from))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new BadLine("the line is not valid UTF-8");
        }
    }

    static LogHeader parseHeader(String line) throws BadLine {
        JsonNode node;
        try {
            node = CanonicalJson.parse(line);
        } catch (IllegalArgumentException e) {
            throw new BadLine("not a session log: the first line is not JSON");
        }
        if (!node.isObject() || !node.has("stretto_mcp_log")) {
            throw new BadLine("not a session log: the first line has no \"stretto_mcp_log\" header");
        }
        JsonNode v = node.get("stretto_mcp_log");
        if (!v.isIntegralNumber() || !v.canConvertToInt() || (v.intValue() != 1 && v.intValue() != 2)) {
            throw new BadLine("unsupported session log version " + v + " (this reader knows 1 and 2)");
        }
        String session = requiredString(node, "session");
        JsonNode started = node.get("started_unix_ms");
        if (started == null || !started.isIntegralNumber() || !started.canConvertToLong()) {
            throw new BadLine("header: \"started_unix_ms\" must be an integer");
        }
        List<String> command = new ArrayList<>();
        JsonNode cmd = node.get("server_command");
        if (cmd != null && !cmd.isNull()) {
            if (!cmd.isArray()) {
                throw new BadLine("header: \"server_command\" must be a list of strings");
            }
            for (JsonNode c : cmd) {
                if (!c.isTextual()) {
                    throw new BadLine("header: \"server_command\" must be a list of strings");
                }
                command.add(c.textValue());
            }
        }
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            switch (f.getKey()) {
                case "stretto_mcp_log", "session", "started_unix_ms", "server_command", "domain",
                     "agent_model", "host_session", "server_name" -> {
                }
                default -> extra.put(f.getKey(), f.getValue());
            }
        }
        return new LogHeader(v.intValue(), session, started.longValue(), command,
                optionalString(node, "domain"), optionalString(node, "agent_model"),
                optionalString(node, "host_session"), optionalString(node, "server_name"), extra);
    }

    private static String requiredString(JsonNode node, String field) throws BadLine {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new BadLine("header: \"" + field + "\" must be a string");
        }
        return v.textValue();
    }

    private static String optionalString(JsonNode node, String field) throws BadLine {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new BadLine("header: \"" + field + "\" must be a string or null");
        }
        return v.textValue();
    }

    /**
     * Reads one entry line with a streaming parser so that a {@code message} value can be
     * cut out of the line as it stands: its key order, number spelling and escapes survive.
     */
    static LogEntry parseEntry(String line) throws BadLine {
        try (JsonParser p = CanonicalJson.factory().createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new BadLine("an entry must be a JSON object");
            }
            Long tMs = null;
            Source from = null;
            Payload payload = null;
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "t_ms" -> {
                        if (tMs != null) {
                            throw new BadLine("\"t_ms\" appears twice");
                        }
                        if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                                || p.getLongValue() < 0) {
                            throw new BadLine("\"t_ms\" must be a non-negative integer");
                        }
                        tMs = p.getLongValue();
                    }
                    case "from" -> {
                        if (from != null) {
                            throw new BadLine("\"from\" appears twice");
                        }
                        if (value != JsonToken.VALUE_STRING) {
                            throw new BadLine("\"from\" must be a string");
                        }
                        try {
                            from = Source.ofWireName(p.getText());
                        } catch (IllegalArgumentException e) {
                            throw new BadLine("\"from\" must be client, server, proxy or context, not \""
                                    + p.getText() + "\"");
                        }
                    }
                    case "message" -> {
                        if (payload != null) {
                            throw new BadLine("an entry holds one \"message\" or one \"raw\"");
                        }
                        int begin = (int) p.currentTokenLocation().getCharOffset();
                        if (value.isStructStart()) {
                            p.skipChildren();
                        } else {
                            p.getText(); // finishes a lazily read string so the location is past it
                        }
                        int end = (int) p.currentLocation().getCharOffset();
                        payload = new Payload.Message(line.substring(begin, end));
                    }
                    case "raw" -> {
                        if (payload != null) {
                            throw new BadLine("an entry holds one \"message\" or one \"raw\"");
                        }
                        if (value != JsonToken.VALUE_STRING) {
                            throw new BadLine("\"raw\" must be a string");
                        }
                        payload = new Payload.Raw(p.getText());
                    }
                    // Fields a later version may add are skipped.
                    default -> p.skipChildren();
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new BadLine("an entry must be a JSON object");
            }
            if (p.nextToken() != null) {
                throw new BadLine("text after the entry's closing brace");
            }
            if (tMs == null) {
                throw new BadLine("the entry has no \"t_ms\"");
            }
            if (from == null) {
                throw new BadLine("the entry has no \"from\"");
            }
            if (payload == null) {
                throw new BadLine("the entry has neither \"message\" nor \"raw\"");
            }
            return new LogEntry(tMs, from, payload);
        } catch (IOException e) {
            String msg = e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe
                    ? jpe.getOriginalMessage() : e.getMessage();
            throw new BadLine("not valid JSON: " + firstLine(msg));
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
