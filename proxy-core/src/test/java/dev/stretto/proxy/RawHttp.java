package dev.stretto.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 written by hand over a socket, for hostile-input tests: any header, twice, with any
 * bytes, which the JDK's client would refuse to send. Each request closes its connection, and
 * the answer is read to its end.
 */
final class RawHttp {

    /** An answer: its status, its head as text and its body (chunked bodies joined). */
    record Answer(int status, String head, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {
    }

    static Answer send(int port, String method, String path, List<String> headers, byte[] body) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            for (String h : headers) {
                head.append(h).append("\r\n");
            }
            head.append("Connection: close\r\n");
            if (body != null) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            byte[] all = s.getInputStream().readAllBytes();
            return parse(all);
        }
    }

    private static Answer parse(byte[] all) throws IOException {
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete answer: " + text);
        }
        String head = text.substring(0, end);
        int status = Integer.parseInt(head.substring(9, 12));
        byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if (head.toLowerCase(Locale.ROOT).contains("\r\ntransfer-encoding: chunked")) {
            rest = dechunk(rest);
        }
        return new Answer(status, head, rest);
    }

    private static byte[] dechunk(byte[] chunked) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(chunked);
        while (true) {
            StringBuilder size = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    return out.toByteArray();
                }
                if (c != '\r') {
                    size.append((char) c);
                }
            }
            int n = Integer.parseInt(size.toString().strip(), 16);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(n));
            in.readNBytes(2);
        }
    }
}
