package dev.stretto.proxy.listen;

import com.sun.net.httpserver.HttpExchange;
import dev.stretto.proxy.http.ErrorLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;

/** What every handler of the endpoint reads from a request and writes as an answer. */
final class Exchanges {

    /** JSON-RPC error code for an unknown or ended session, as the TypeScript SDK's servers use it. */
    static final int SESSION_NOT_FOUND = -32001;

    /** How much of a body over the limit is read all the same before the 413. */
    private static final long DRAINED = 1 << 20;

    private Exchanges() {
    }

    /** What the client's {@code Accept} lets it take. */
    record Accepts(boolean json, boolean sse) {
    }

    /**
     * The media types the request accepts: {@code application/json} (also by {@code
     * application/*}, {@code *}{@code /*} or no {@code Accept} at all) and {@code text/event-stream}
     * (named, or by {@code text/*}); a type with {@code q=0} is not accepted.
     */
    static Accepts accepts(HttpExchange exchange) {
        List<String> values = exchange.getRequestHeaders().get("Accept");
        if (values == null || values.isEmpty()) {
            return new Accepts(true, false);
        }
        boolean json = false;
        boolean sse = false;
        for (String value : values) {
            for (String part : value.split(",")) {
                String[] pieces = part.split(";");
                String type = pieces[0].strip().toLowerCase(Locale.ROOT);
                boolean refused = false;
                for (int i = 1; i < pieces.length; i++) {
                    String p = pieces[i].strip().toLowerCase(Locale.ROOT).replace(" ", "");
                    if (p.matches("q=0(\\.0*)?")) {
                        refused = true;
                    }
                }
                if (refused) {
                    continue;
                }
                switch (type) {
                    case "application/json", "application/*", "*/*" -> json = true;
                    case "text/event-stream", "text/*" -> sse = true;
                    default -> {
                    }
                }
            }
        }
        return new Accepts(json, sse);
    }

    /** The media type of the request's body, lowercased, without parameters; null when there is none. */
    static String contentType(HttpExchange exchange) {
        String value = exchange.getRequestHeaders().getFirst("Content-Type");
        if (value == null) {
            return null;
        }
        int semi = value.indexOf(';');
        return (semi < 0 ? value : value.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /**
     * The header's value, or null when it is not there.
     *
     * @throws Refused with 400 when it is given more than once
     */
    static String single(HttpExchange exchange, String name) throws Refused {
        List<String> values = exchange.getRequestHeaders().get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new Refused(400, "Bad Request: the " + name + " header is given more than once");
        }
        return values.getFirst();
    }

    /**
     * The request's body, at most {@code max} bytes.
     *
     * @throws Refused with 413 when it is longer, 400 when its length is not a number
     */
    static byte[] body(HttpExchange exchange, long max) throws IOException, Refused {
        String declared = single(exchange, "Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                throw new Refused(400, "Bad Request: Content-Length is not a number");
            }
            if (length > max) {
                // Read what is not much more, so that the client, still sending, gets the answer
                // rather than a reset connection; a body far too large is cut off.
                if (length <= max + DRAINED) {
                    exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
                }
                throw tooLarge(max);
            }
        }
        InputStream in = exchange.getRequestBody();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            total += n;
            if (total > max) {
                throw tooLarge(max);
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private static Refused tooLarge(long max) {
        return new Refused(413, "Content Too Large: the body is over " + max + " bytes, the most this listener takes");
    }

    /** Answers with {@code status} and a JSON-RPC error without id. */
    static void error(HttpExchange exchange, int status, int code, String message) throws IOException {
        json(exchange, status, ErrorLines.error(null, code, message));
    }

    /** Answers a refusal: its status and message, with the JSON-RPC code that fits the status. */
    static void refuse(HttpExchange exchange, Refused refused) throws IOException {
        error(exchange, refused.status, refused.status == 404 ? SESSION_NOT_FOUND : ErrorLines.UPSTREAM_FAILED,
                refused.getMessage());
    }

    /** Answers with {@code status} and a JSON body. */
    static void json(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Answers with {@code status} and no body. */
    static void empty(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }
}
