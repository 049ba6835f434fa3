package dev.stretto.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay on 127.0.0.1 in front of a port that drops one connection the way a network
 * does: the first time what the server sends holds {@code trigger}, the relay passes on the
 * rest of that server-sent event and then closes both sides, mid-response. Every other byte
 * passes unchanged. It keeps what the client sent, so a test can tell how the client came back.
 */
final class CuttingRelay implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final byte[] trigger;
    private final AtomicBoolean cut = new AtomicBoolean();
    private final List<StringBuffer> sentByConnection = new CopyOnWriteArrayList<>();
    private static final Pattern REQUEST_HEAD = Pattern.compile("(?:GET|POST|DELETE) /mcp[^\\r]*\\r\\n.*?\\r\\n\\r\\n",
            Pattern.DOTALL);

    CuttingRelay(int targetPort, String trigger) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.trigger = trigger.getBytes(StandardCharsets.UTF_8);
        Thread.ofVirtual().name("relay-accept").start(this::accept);
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/mcp";
    }

    boolean hasCut() {
        return cut.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                Thread.ofVirtual().start(() -> toServer(client, upstream));
                Thread.ofVirtual().start(() -> toClient(upstream, client));
            }
        } catch (IOException closed) {
            // The relay is closed.
        }
    }

    private void toServer(Socket client, Socket upstream) {
        StringBuffer sent = new StringBuffer();
        sentByConnection.add(sent);
        try (InputStream in = client.getInputStream(); OutputStream out = upstream.getOutputStream()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                sent.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException gone) {
            // Either side went away.
        } finally {
            closeQuietly(client, upstream);
        }
    }

    /** The head (request line and headers) of every request the relay passed on, in no particular order. */
    List<String> requestHeads() {
        List<String> heads = new ArrayList<>();
        for (StringBuffer sent : sentByConnection) {
            Matcher m = REQUEST_HEAD.matcher(sent);
            while (m.find()) {
                heads.add(m.group());
            }
        }
        return heads;
    }

    private void toClient(Socket upstream, Socket client) {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                if (!cut.get()) {
                    int start = seen.size();
                    seen.write(buf, 0, n);
                    byte[] all = seen.toByteArray();
                    int at = indexOf(all, trigger, 0);
                    int end = at < 0 ? -1 : indexOf(all, "\n\n".getBytes(StandardCharsets.US_ASCII), at);
                    if (end >= 0 && cut.compareAndSet(false, true)) {
                        out.write(all, start, end + 2 - start);
                        out.flush();
                        return;
                    }
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException gone) {
            // Either side went away.
        } finally {
            closeQuietly(client, upstream);
        }
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static void closeQuietly(Socket... sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // Closing is all that is left to do.
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
